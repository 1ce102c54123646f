import { useListContext, useRecordContext } from 'react-admin';

/** The seeds' S/N column: the row's position in the whole list, counting the pages before it. */
export const SerialField = () => {
  const record = useRecordContext();
  const { data, page, perPage } = useListContext();
  if (!record || !data) return null;
  const index = data.findIndex((row) => row.id === record.id);
  return <span>{(page - 1) * perPage + index + 1}</span>;
};
