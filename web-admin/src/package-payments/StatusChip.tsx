import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

const colour = (status: string) => (status === 'approved' ? 'success' : status === 'pending' ? 'warning' : status === 'initiated' ? 'default' : 'error');

/**
 * A payment's status: approved in the success style, any other decided value in the danger style
 * (seed 002 §4), a receipt still waiting in the warning style.
 */
export const StatusChip = ({ status }: { status?: string; label?: string; source?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const value = status ?? (record?.status as string | undefined);
  if (!value) return null;
  return <Chip size="small" color={colour(value)} variant={value === 'pending' ? 'outlined' : 'filled'} label={translate(`pos.approvals.status.${value}`, { _: value })} />;
};
