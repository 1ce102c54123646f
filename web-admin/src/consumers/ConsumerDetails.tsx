import { Alert, AlertTitle, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ConsumerRecord } from '@portal/services/contracts/operators';
import { ago } from './format';

/** Why a consumer is not running: the event it stopped on and the error, or who paused it. */
export const ConsumerDetails = ({ consumer }: { consumer: ConsumerRecord }) => {
  const translate = useTranslate();
  return (
    <>
      {consumer.failure && (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="consumer-failure">
          <AlertTitle>{translate('pos.consumers.failure_title', { position: consumer.failure.global_position ?? '?', type: consumer.failure.type ?? '?' })}</AlertTitle>
          <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>
            {consumer.failure.message}
          </Typography>
          {consumer.failure.stream_id && (
            <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {translate('pos.consumers.failure_stream', { stream: consumer.failure.stream_id, stream_position: consumer.failure.stream_position ?? '?', since: ago(consumer.failure.since) })}
            </Typography>
          )}
        </Alert>
      )}
      {consumer.paused && (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid="consumer-paused">
          {translate('pos.consumers.paused_by', { name: consumer.paused.by.name ?? consumer.paused.by.id, when: ago(consumer.paused.at) })}
          {consumer.paused.reason ? ` — ${translate('pos.consumers.reason', { reason: consumer.paused.reason })}` : ''}
        </Alert>
      )}
    </>
  );
};
