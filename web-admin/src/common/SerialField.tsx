import { useListContext, useRecordContext } from 'react-admin';

/**
 * The seeds' S/N column: the row's place in the whole list (per-page count times page index, plus
 * its place on the page), so numbering runs on across pages. `label` names the column header.
 */
export const SerialField = (_props: { label?: string; source?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const { data, page, perPage } = useListContext();
  if (!record || !data) return null;
  const index = data.findIndex((row) => row.id === record.id);
  return <>{index < 0 ? '' : (page - 1) * perPage + index + 1}</>;
};
