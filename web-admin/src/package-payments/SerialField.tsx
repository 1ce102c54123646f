import { Typography } from '@mui/material';
import { useListContext, useRecordContext } from 'react-admin';

/** The seed's S/N column: the row's position in the whole list, across pages. */
export const SerialField = (_props: { label?: string; source?: string; sortable?: boolean }) => {
  const record = useRecordContext();
  const { data, page, perPage } = useListContext();
  if (!record || !data) return null;
  const index = data.findIndex((row) => row.id === record.id);
  return <Typography variant="body2">{index < 0 ? '' : (page - 1) * perPage + index + 1}</Typography>;
};
