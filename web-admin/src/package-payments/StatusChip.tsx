import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

const colour = (status: string) => (status === 'approved' ? 'success' : status === 'pending' ? 'warning' : status === 'initiated' ? 'default' : 'error');

/**
 * A payment's status: approved in the success style, any other decided value in the danger style
 * (seed 002 §4), a receipt still waiting in the warning style, a started checkout outlined and grey.
 */
export const StatusChip = ({ status }: { status?: string; label?: string; source?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const value = status ?? (record?.status as string | undefined);
  if (!value) return null;
  // A card checkout the member opened and never paid: said plainly, not as a payment in progress.
  const key = value === 'initiated' && record?.method === 'card' ? 'card_started' : value;
  return (
    <Chip
      size="small"
      color={colour(value)}
      variant={value === 'pending' || value === 'initiated' ? 'outlined' : 'filled'}
      label={translate(`pos.approvals.status.${key}`, { _: value })}
      // The long label wraps rather than widening the table past the actions column.
      sx={key === 'card_started' ? { height: 'auto', maxWidth: 150, py: 0.25, '& .MuiChip-label': { whiteSpace: 'normal', textAlign: 'center' } } : undefined}
    />
  );
};
