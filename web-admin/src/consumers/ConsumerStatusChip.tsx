import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ConsumerStatus } from '@portal/services/contracts/operators';

const colors = { caught_up: 'success', catching_up: 'info', failed: 'error', paused: 'warning' } as const;

export const ConsumerStatusChip = ({ status }: { status: ConsumerStatus }) => {
  const translate = useTranslate();
  return <Chip size="small" color={colors[status]} variant={status === 'caught_up' ? 'outlined' : 'filled'} label={translate(`pos.consumers.state.${status}`)} data-testid="consumer-status" />;
};
