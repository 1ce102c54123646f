import { Alert, Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BrokenLinkRecord, LogVerification } from '@portal/services/contracts/log-verification';
import { formatDateTime } from '../common/dates';

const statusColor = { intact: 'success', broken: 'error', failed: 'warning', queued: 'default', running: 'info' } as const;

export const TamperStatusChip = ({ status }: { status: LogVerification['status'] }) => {
  const translate = useTranslate();
  return <Chip size="small" color={statusColor[status]} label={translate(`pos.tamper.status.${status}`)} data-testid="tamper-status" />;
};

const formatWhen = (iso: string | null) => formatDateTime(iso, '—');
const mono = { fontFamily: 'monospace', wordBreak: 'break-all' } as const;

/** The first broken link, laid out so a person can find it in the log: stream, position, what was expected and found. */
const BrokenLinkDetail = ({ link }: { link: BrokenLinkRecord }) => {
  const translate = useTranslate();
  const rows: Array<[string, string, boolean]> = [
    ['pos.tamper.stream', link.stream_id, true],
    ['pos.tamper.position', String(link.stream_position), false],
    ['pos.tamper.problem', link.problem, false],
    ['pos.tamper.expected', link.expected, true],
    ['pos.tamper.found', link.found, true],
  ];
  return (
    <Box data-testid="first-broken-link" sx={{ border: 1, borderColor: 'error.light', borderRadius: 1, p: 2 }}>
      <Typography variant="subtitle2" gutterBottom>
        {translate('pos.tamper.first_broken')}
      </Typography>
      {rows.map(([label, value, isCode]) => (
        <Stack key={label} direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }} sx={{ py: 0.5 }}>
          <Typography variant="body2" color="text.secondary" sx={{ minWidth: 90 }}>
            {translate(label)}
          </Typography>
          <Typography variant="body2" sx={isCode ? mono : undefined} data-testid={`broken-${label.split('.').at(-1)}`}>
            {value}
          </Typography>
        </Stack>
      ))}
    </Box>
  );
};

const OtherProblems = ({ problems }: { problems: BrokenLinkRecord[] }) => {
  const translate = useTranslate();
  if (problems.length === 0) return null;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {translate('pos.tamper.more_problems')}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('pos.tamper.stream')}</TableCell>
            <TableCell>{translate('pos.tamper.position')}</TableCell>
            <TableCell>{translate('pos.tamper.problem')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {problems.map((p) => (
            <TableRow key={`${p.stream_id}:${p.stream_position}:${p.kind}`}>
              <TableCell sx={mono}>{p.stream_id}</TableCell>
              <TableCell>{p.stream_position}</TableCell>
              <TableCell>{p.problem}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};

/** A finished run: intact (how much was checked) or broken (the first broken link and the rest), with its heads digest. */
export const TamperResult = ({ run }: { run: LogVerification }) => {
  const translate = useTranslate();
  return (
    <Stack spacing={2} data-testid="tamper-result">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <TamperStatusChip status={run.status} />
        <Typography variant="body2" color="text.secondary">
          {translate('pos.tamper.finished_at')}: {formatWhen(run.finished_at)} · {translate('pos.tamper.started_by')}{' '}
          {translate(run.trigger === 'schedule' ? 'pos.tamper.by_schedule' : 'pos.tamper.by_admin')}
        </Typography>
      </Stack>
      {run.status === 'intact' && (
        <Alert severity="success">{translate('pos.tamper.result_intact', { events: run.events_checked.toLocaleString('en-US'), streams: run.streams_checked.toLocaleString('en-US') })}</Alert>
      )}
      {run.status === 'broken' && <Alert severity="error">{translate('pos.tamper.result_broken', { count: run.problems_count.toLocaleString('en-US') })}</Alert>}
      {run.status === 'failed' && <Alert severity="warning">{translate('pos.tamper.result_failed', { error: run.error ?? '' })}</Alert>}
      {run.first_problem && <BrokenLinkDetail link={run.first_problem} />}
      <OtherProblems problems={run.problems.slice(1)} />
      {run.heads_digest && (
        <Box>
          <Typography variant="caption" color="text.secondary">
            {translate('pos.tamper.digest')}
          </Typography>
          <Typography variant="body2" sx={mono} data-testid="heads-digest">
            {run.heads_digest}
          </Typography>
        </Box>
      )}
    </Stack>
  );
};

export { formatWhen };
