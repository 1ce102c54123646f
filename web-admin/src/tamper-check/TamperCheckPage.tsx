import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Alert, Box, Button, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { Title, useAuthenticated, useTranslate } from 'react-admin';
import { errorMessage } from '../api/errors';
import { TamperResult } from './TamperResult';
import { isUnderWay, useLatestTamperCheck, useStartTamperCheck } from './useTamperCheck';

/**
 * The tamper check (docs/tamper-check.md), for finance staff and admins: run the verification of
 * every hash chain of the event log, follow it on a progress bar, and read the result (the first
 * broken link named). The work is a job in the worker; this page only starts and follows it.
 */
export const TamperCheckPage = () => {
  useAuthenticated();
  const translate = useTranslate();
  const latest = useLatestTamperCheck();
  const start = useStartTamperCheck();
  const run = latest.data?.latest ?? null;
  const underWay = isUnderWay(run);
  const finished = underWay ? latest.data?.last_finished : run;
  const explain = (error: unknown) => {
    const { message, translate: isKey } = errorMessage(error);
    return isKey ? translate(message) : message;
  };

  return (
    <Card sx={{ mt: 2 }}>
      <Title title="pos.tamper.title" />
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 760 }}>
            {translate('pos.tamper.intro')}
          </Typography>
          <Box>
            <Button variant="contained" startIcon={<PlayArrowIcon />} onClick={() => start.mutate()} disabled={underWay || start.isPending} data-testid="run-tamper-check">
              {translate('pos.tamper.run')}
            </Button>
          </Box>
          {start.isError && <Alert severity="error">{explain(start.error)}</Alert>}
          {latest.isError && <Alert severity="error">{explain(latest.error)}</Alert>}
          {underWay && run && (
            <Box data-testid="tamper-progress">
              <Typography variant="body2" sx={{ mb: 1 }}>
                {run.status === 'queued'
                  ? translate('pos.tamper.queued')
                  : translate('pos.tamper.progress', { checked: run.events_checked.toLocaleString('en-US'), total: run.events_total.toLocaleString('en-US'), percent: run.percent })}
              </Typography>
              <LinearProgress variant={run.status === 'queued' ? 'indeterminate' : 'determinate'} value={run.percent} aria-label={translate('pos.tamper.running')} />
            </Box>
          )}
          {finished ? <TamperResult run={finished} /> : !underWay && !latest.isPending && <Typography color="text.secondary">{translate('pos.tamper.never')}</Typography>}
        </Stack>
      </CardContent>
    </Card>
  );
};
