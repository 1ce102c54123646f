import type { ReactNode } from 'react';
import { Alert, Box, Card, CardContent, Chip, LinearProgress, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import CompareArrows from '@mui/icons-material/CompareArrowsOutlined';
import EventIcon from '@mui/icons-material/EventOutlined';
import HelpOutline from '@mui/icons-material/HelpOutline';
import type { MatchingStatus } from '../api/earnings';
import { useMatchingStatus } from '../api/earnings-queries';
import { useMember } from '../auth/member-context';
import { formatDate } from '../lib/dates';
import { formatNaira } from '../lib/money';

/**
 * The matching bonus explained to the member (issue 14 item 3): the volume standing on each leg,
 * how much a pair needs, the pairs that would form now and what they would pay, the last cycle's
 * result (paid, capped, or why not and what carried) and when the next cycle closes.
 * `full` on the dashboard, `compact` beside the wallet's bonuses.
 */

const pv = (n: number) => `${n.toLocaleString('en-US')} PV`;

/** "No pair yet", "1 pair now", "3 pairs now". */
export const pairsText = (pairs: number) => (pairs === 0 ? 'No pair yet' : pairs === 1 ? '1 pair now' : `${pairs.toLocaleString('en-US')} pairs now`);

const lastColors = { paid: 'success', capped: 'warning', not_qualified: 'default', no_pair: 'default' } as const;
const lastLabels = { paid: 'Paid', capped: 'Capped', not_qualified: 'Not paid', no_pair: 'No pair' } as const;

function Leg({ side, value, pairs, pairPv, testId }: { side: 'Left' | 'Right'; value: number; pairs: number; pairPv: number; testId: string }) {
  // What stands on this leg beyond the pairs that form now, as a share of one pair's PV.
  const leftover = Math.max(0, value - pairs * pairPv);
  const progress = pairPv > 0 ? Math.min(leftover / pairPv, 1) * 100 : 0;
  const hint = pairPv > 0 ? `${pv(leftover)} on this leg beyond the pairs now; a pair takes ${pv(pairPv)} from each leg` : '';
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography variant="caption" color="text.secondary">
          {side} leg
        </Typography>
        <Typography variant="subtitle1" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
          {pv(value)}
        </Typography>
      </Stack>
      <Tooltip title={hint}>
        <LinearProgress variant="determinate" value={progress} sx={{ height: 6, borderRadius: 3, mt: 0.5 }} aria-label={`${side} leg toward a pair`} />
      </Tooltip>
    </Box>
  );
}

function NextClose({ status }: { status: MatchingStatus }) {
  return (
    <Tooltip title={`Cycles run every ${status.frequency_days} days and close at midnight (Lagos) after their last day.`}>
      <Chip
        size="small"
        variant="outlined"
        icon={<EventIcon />}
        label={`Next close: ${formatDate(status.next_cycle_end)}`}
        data-testid="matching-next-close"
        sx={{ maxWidth: '100%' }}
      />
    </Tooltip>
  );
}

function LastCycle({ status, dense }: { status: MatchingStatus; dense?: boolean }) {
  const last = status.last_cycle;
  if (!last) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="matching-last-cycle">
        No matching cycle has closed yet.
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Chip size="small" color={lastColors[last.outcome]} variant={last.outcome === 'paid' ? 'filled' : 'outlined'} label={lastLabels[last.outcome]} sx={{ flexShrink: 0, mt: dense ? 0 : 0.25 }} />
      <Typography variant="body2" color="text.secondary" data-testid="matching-last-cycle">
        {last.text}
      </Typography>
    </Stack>
  );
}

function Frame({ children, compact }: { children: ReactNode; compact: boolean }) {
  return (
    <Card component="section" aria-labelledby={compact ? 'matching-compact-title' : 'matching-title'} data-testid={compact ? 'matching-compact' : 'matching-card'} sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.25, sm: compact ? 2.5 : 3 } }}>{children}</CardContent>
    </Card>
  );
}

export function MatchingStatusCard({ variant = 'full' }: { variant?: 'full' | 'compact' }) {
  const user = useMember();
  const query = useMatchingStatus(user.uuid);
  const compact = variant === 'compact';
  const s = query.data;
  const title = (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', mb: 1.5, minHeight: 32, flexWrap: 'wrap', rowGap: 1 }}>
      <CompareArrows color="primary" fontSize="small" />
      <Typography id={compact ? 'matching-compact-title' : 'matching-title'} variant="h6" component="h2" sx={{ flex: 1, whiteSpace: 'nowrap' }}>
        {compact ? 'Matching bonus' : 'Your matching bonus'}
      </Typography>
      {s && !compact && <NextClose status={s} />}
    </Stack>
  );
  if (query.isPending) {
    return (
      <Frame compact={compact}>
        {title}
        <Skeleton variant="rounded" height={compact ? 96 : 140} />
      </Frame>
    );
  }
  if (query.isError || !s) {
    return (
      <Frame compact={compact}>
        {title}
        <Alert severity="error">Your matching figures could not be loaded.</Alert>
      </Frame>
    );
  }
  const rule =
    s.pair_pv > 0
      ? `A pair is ${pv(s.pair_pv)} on each leg and pays ${formatNaira((s.pair_pv * s.unit_point_value * s.percent) / 100)} (${s.percent}% of ${pv(s.pair_pv)} × ${formatNaira(s.unit_point_value)})${s.cap > 0 ? `, up to ${formatNaira(s.cap)} a cycle on your package` : ''}.`
      : '';
  return (
    <Frame compact={compact}>
      {title}
      <Stack direction="row" spacing={2} sx={{ mb: 1.5 }}>
        <Leg side="Left" value={s.left_pv} pairs={s.pairs_now} pairPv={s.pair_pv} testId={compact ? 'matching-compact-left' : 'matching-left'} />
        <Leg side="Right" value={s.right_pv} pairs={s.pairs_now} pairPv={s.pair_pv} testId={compact ? 'matching-compact-right' : 'matching-right'} />
      </Stack>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'baseline', flexWrap: 'wrap', rowGap: 0.5, mb: 1 }}>
        <Typography variant={compact ? 'subtitle1' : 'h6'} sx={{ fontWeight: 700 }} data-testid={compact ? 'matching-compact-pairs' : 'matching-pairs'}>
          {pairsText(s.pairs_now)}
        </Typography>
        {(s.pairs_now > 0 || !s.qualified) && (
          <Typography variant="body2" color={s.qualified ? 'success.main' : 'text.secondary'} sx={{ fontWeight: 600 }} data-testid={compact ? 'matching-compact-payable' : 'matching-payable'}>
            {s.qualified ? `${formatNaira(s.payable_now)} at the next close` : 'Not paid until you qualify'}
          </Typography>
        )}
        {compact && (
          <Typography variant="caption" color="text.secondary">
            Next close {formatDate(s.next_cycle_end)}
          </Typography>
        )}
      </Stack>
      {!compact && (
        <Alert severity={s.qualified ? 'info' : 'warning'} icon={s.qualified ? <HelpOutline fontSize="inherit" /> : undefined} sx={{ mb: 1.5 }} data-testid="matching-summary">
          {s.summary}
        </Alert>
      )}
      {compact && !s.qualified && (
        <Typography variant="body2" color="warning.main" sx={{ mb: 1 }}>
          {s.not_qualified_reason === 'inactive' ? 'You are not active: your volume keeps until you are.' : 'You need an active member placed directly on each leg to be paid.'}
        </Typography>
      )}
      <LastCycle status={s} dense={compact} />
      {!compact && rule && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1.5 }}>
          {rule} Pairs use up their PV; what is left on each leg carries to the next cycle.
        </Typography>
      )}
    </Frame>
  );
}
