import { Chip, Tooltip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

type Status = 'pending' | 'processing' | 'successful' | 'failed';
type Outcome = 'refused' | 'failed' | 'reversed' | null;

const colors = { pending: 'warning', processing: 'info', successful: 'success', failed: 'error' } as const;

/** The key naming where a withdrawal is: its status, or for a failed one how it failed. */
export const statusKey = (record: { status: Status; outcome?: Outcome }): string =>
  record.status === 'failed' && record.outcome ? record.outcome : record.status;

/** A coloured chip (Queued, Sent, Paid, Failed, Refused, Reversed) whose tooltip says what it means. */
export const WithdrawalStatusField = (_props: { label?: string }) => {
  const record = useRecordContext<{ id: string; status: Status; outcome: Outcome }>();
  const translate = useTranslate();
  if (!record) return null;
  const key = statusKey(record);
  return (
    <Tooltip title={translate(`pos.finance.status_meaning.${key}`)}>
      <Chip size="small" color={colors[record.status]} variant={record.status === 'successful' ? 'filled' : 'outlined'} label={translate(`pos.finance.status.${key}`)} />
    </Tooltip>
  );
};
