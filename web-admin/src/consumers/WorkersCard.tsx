import { Alert, Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { WorkerRecord } from '@portal/services/contracts/operators';
import { ago } from './format';

/** Which worker processes are running (their heartbeats) and what each holds right now. */
export const WorkersCard = ({ workers }: { workers: WorkerRecord[] }) => {
  const translate = useTranslate();
  return (
    <Card>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {translate('pos.consumers.workers')}
        </Typography>
        {workers.length === 0 && <Alert severity="warning">{translate('pos.consumers.no_workers')}</Alert>}
        <Stack sx={{ gap: 1.5 }}>
          {workers.map((worker) => (
            <Box key={worker.id} data-testid="worker" sx={{ borderLeft: 3, borderColor: 'success.main', pl: 1.5 }}>
              <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-all' }}>
                {worker.host} · pid {worker.pid}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p">
                {translate('pos.consumers.worker_started', { when: ago(worker.started_at) })} · {translate('pos.consumers.worker_beat', { when: ago(worker.beat_at) })} ·{' '}
                {translate('pos.consumers.worker_memory', { mb: Math.round(worker.rss_bytes / 1_048_576) })}
              </Typography>
              <Typography variant="caption" component="p">
                {translate('pos.consumers.worker_runs', { n: worker.consumers.length })} ·{' '}
                {worker.draining.length > 0 ? translate('pos.consumers.worker_draining', { names: worker.draining.join(', ') }) : translate('pos.consumers.worker_idle')}
                {worker.rebuilding ? ` · ${translate('pos.consumers.worker_rebuilding', { name: worker.rebuilding.consumer })}` : ''}
              </Typography>
            </Box>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
};
