import { useListContext, useRecordContext } from 'react-admin';

/**
 * The seeds' S/N column: the row's place in the whole list (per-page count times page index, plus
 * its place on the page), so numbering runs on across pages.
 */
export const SerialNumberField = () => {
  const record = useRecordContext();
  const { data, page, perPage } = useListContext();
  if (!record || !data) return null;
  const index = data.findIndex((row) => row.id === record.id);
  return <span>{(page - 1) * perPage + index + 1}</span>;
};
