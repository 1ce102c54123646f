import { Box, LinearProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { RebuildRun } from '@portal/services/contracts/operators';
import { ago, count } from './format';

/** The latest rebuild of a projection: a live bar while it runs, then when and by whom it ran. */
export const RebuildProgress = ({ run }: { run: RebuildRun }) => {
  const translate = useTranslate();
  const active = run.status === 'queued' || run.status === 'running';
  if (run.status === 'failed') {
    return (
      <Typography variant="caption" color="error" data-testid="rebuild-failed">
        {translate('pos.consumers.rebuild_failed', { error: run.error ?? '' })}
      </Typography>
    );
  }
  if (!active) {
    return (
      <Box data-testid="rebuild-done" sx={{ minWidth: 180 }}>
        <LinearProgress variant="determinate" value={100} color="success" aria-label={translate('pos.consumers.rebuild')} sx={{ height: 8, borderRadius: 4, mb: 0.5 }} />
        <Typography variant="caption" color="text.secondary">
          {translate('pos.consumers.rebuild_done', { when: ago(run.finished_at), applied: count(run.applied), name: run.requested_by.name ?? run.requested_by.id })}
        </Typography>
      </Box>
    );
  }
  return (
    <Box data-testid="rebuild-progress" sx={{ minWidth: 180 }}>
      <LinearProgress
        variant={run.status === 'queued' ? 'indeterminate' : 'determinate'}
        value={run.percent}
        aria-label={translate('pos.consumers.rebuild')}
        sx={{ height: 8, borderRadius: 4, mb: 0.5 }}
      />
      <Typography variant="caption" color="text.secondary">
        {run.status === 'queued'
          ? translate('pos.consumers.rebuild_queued')
          : translate('pos.consumers.rebuild_progress', { applied: count(run.applied), total: count(run.total), percent: run.percent })}
      </Typography>
    </Box>
  );
};
