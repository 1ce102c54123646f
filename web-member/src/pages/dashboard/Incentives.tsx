import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Box, Button, Card, CardContent, Chip, Skeleton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import EmojiEvents from '@mui/icons-material/EmojiEventsOutlined';
import { useMember } from '../../auth/member-context';
import { earningsApi, type CurrentIncentive } from '../../api/earnings';
import { earningsKeys, useCurrentIncentive, useIncentiveClaims, useRankBadge, useTotalPv } from '../../api/earnings-queries';
import { formatDate } from '../../lib/dates';
import { formatNaira } from '../../lib/money';
import { toast } from '../../lib/notify';
import { storageUrl } from '../../lib/storage';
import { CardTitle, grouped } from './common';

/** Seed 000 §8 wording. */
const NO_CLAIMS = 'There are no claimed incentives';
const NOT_QUALIFIED_FOR_INCENTIVE = 'You are yet to qualify for an incentive';
const INCENTIVE_CLAIMED = 'incentive claimed successfully';

// ── Current incentive ────────────────────────────────────────────────────────────────────

function claimStatusColor(status: string): 'primary' | 'success' | 'error' {
  // Seed 000 §4: processing primary, approved success, anything else danger.
  if (status === 'processing') return 'primary';
  if (status === 'approved') return 'success';
  return 'error';
}

const capitalise = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

function IncentiveImage({ src, alt }: { src: string | null; alt: string }) {
  const [broken, setBroken] = useState(false);
  return (
    <Box
      sx={{
        width: { xs: 80, sm: 88 },
        height: { xs: 80, sm: 88 },
        flexShrink: 0,
        borderRadius: 3,
        overflow: 'hidden',
        display: 'grid',
        placeItems: 'center',
        bgcolor: '#fbf5e9',
        border: '1px solid #f0e2c4',
      }}
    >
      {src && !broken ? (
        <Box component="img" src={src} alt={alt} onError={() => setBroken(true)} sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
      ) : (
        <EmojiEvents sx={{ fontSize: 48, color: 'secondary.main' }} aria-hidden />
      )}
    </Box>
  );
}

function ClaimAction({ current }: { current: NonNullable<CurrentIncentive> }) {
  const user = useMember();
  const queryClient = useQueryClient();
  const [claiming, setClaiming] = useState(false);
  const claim = async () => {
    setClaiming(true);
    try {
      const res = await earningsApi.claimIncentive(user.uuid, { rank_id: current.rank_id, incentive_id: current.incentive_id });
      toast.success(res.message || INCENTIVE_CLAIMED);
      await queryClient.invalidateQueries({ queryKey: earningsKeys.incentives(user.uuid) });
    } catch {
      /* shown by the client */
    } finally {
      setClaiming(false);
    }
  };
  const status = current.claim?.status;
  if (!status) {
    return (
      <Button variant="contained" color="secondary" fullWidth startIcon={<EmojiEvents />} onClick={claim} disabled={claiming} data-testid="claim-incentive" sx={{ whiteSpace: 'nowrap' }}>
        {claiming ? 'Claiming…' : 'Claim Incentive'}
      </Button>
    );
  }
  // The status "button" of the seed: it shows where the claim stands and does nothing itself.
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <Chip color={claimStatusColor(status)} label={status === 'processing' ? 'Claim processing' : `Claim ${status}`} data-testid="claim-status" sx={{ height: 36, px: 1, borderRadius: 2 }} />
      {status === 'declined' && (
        <Button variant="outlined" color="secondary" onClick={claim} disabled={claiming} data-testid="claim-incentive">
          {claiming ? 'Claiming…' : 'Claim again'}
        </Button>
      )}
    </Stack>
  );
}

function RankBadgeOrNothing({ rankId }: { rankId: number | null }) {
  const badge = useRankBadge(rankId);
  if (rankId && badge.isPending) return <Skeleton variant="rounded" height={88} />;
  if (!badge.data) {
    return (
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid="incentive-none">
        <IncentiveImage src={null} alt="" />
        <Typography color="text.secondary">{NOT_QUALIFIED_FOR_INCENTIVE}</Typography>
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid="rank-badge">
      <IncentiveImage src={storageUrl(badge.data.file_path)} alt={`${badge.data.name} badge`} />
      <Box>
        <Typography variant="caption" color="text.secondary">
          Your rank
        </Typography>
        <Typography sx={{ fontWeight: 700, fontSize: '1.15rem' }}>{badge.data.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          Every incentive up to this rank is claimed. Keep growing your CPV for the next one.
        </Typography>
      </Box>
    </Stack>
  );
}

export function IncentiveCard() {
  const user = useMember();
  const current = useCurrentIncentive(user.uuid);
  const points = useTotalPv(user.uuid);
  const rankId = points.data?.rank_id ?? user.rank_id ?? null;
  const c = current.data;
  return (
    <Card component="section" aria-labelledby="incentive-title" data-testid="incentive-card" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<EmojiEvents color="secondary" fontSize="small" />} title="Current incentive" id="incentive-title" />
        {current.isPending ? (
          <Stack direction="row" spacing={2}>
            <Skeleton variant="rounded" width={88} height={88} />
            <Box sx={{ flex: 1 }}>
              <Skeleton width="60%" />
              <Skeleton width="80%" />
              <Skeleton width="40%" height={40} />
            </Box>
          </Stack>
        ) : current.isError ? (
          <Typography color="text.secondary" data-testid="incentive-unavailable">
            Incentives are not available right now.
          </Typography>
        ) : c ? (
          <Stack spacing={2}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
              <IncentiveImage src={storageUrl(c.file_path)} alt={c.incentive} />
              <Box sx={{ minWidth: 0, flex: 1 }}>
                <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                  <Chip size="small" variant="outlined" color="secondary" label={c.rank_name} />
                  <Typography variant="body2" color="text.secondary" data-testid="incentive-points">
                    {grouped.format(c.points)} PV
                  </Typography>
                </Stack>
                <Typography sx={{ fontWeight: 700, fontSize: '1.02rem', mt: 0.75, lineHeight: 1.3 }} data-testid="incentive-text">
                  {c.incentive}
                </Typography>
                {c.worth > 0 && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
                    Cash equivalent {formatNaira(c.worth)}
                  </Typography>
                )}
              </Box>
            </Stack>
            <ClaimAction current={c} />
          </Stack>
        ) : (
          <RankBadgeOrNothing rankId={rankId} />
        )}
      </CardContent>
    </Card>
  );
}


// ── Claimed incentives ───────────────────────────────────────────────────────────────────

export function ClaimedIncentivesCard() {
  const user = useMember();
  const claims = useIncentiveClaims(user.uuid);
  const rows = claims.data ?? [];
  return (
    <Card component="section" aria-labelledby="claims-title">
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<EmojiEvents color="primary" fontSize="small" />} title="Claimed Incentives" id="claims-title" />
        {claims.isPending ? (
          <Skeleton variant="rounded" height={96} />
        ) : claims.isError ? (
          <Typography variant="body2" color="text.secondary" data-testid="claims-unavailable">
            Your claimed incentives could not be loaded.
          </Typography>
        ) : rows.length === 0 ? (
          <Typography variant="body2" color="text.secondary" data-testid="claims-empty">
            {NO_CLAIMS}
          </Typography>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Claimed incentives">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 40, pr: 0 }}>S/N</TableCell>
                  <TableCell>Incentive</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                    PV level
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Date</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row, i) => (
                  <TableRow key={row.id}>
                    <TableCell sx={{ pr: 0 }}>{i + 1}</TableCell>
                    <TableCell>
                      <Typography variant="body2" sx={{ fontWeight: 600 }}>
                        {row.incentive}
                      </Typography>
                      <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                        {grouped.format(row.points)} PV · {formatDate(row.created_at)}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={claimStatusColor(row.status)} label={capitalise(row.status)} />
                      {row.status === 'declined' && row.decline_reason && (
                        <Typography variant="caption" color="error" sx={{ display: 'block', mt: 0.5 }}>
                          {row.decline_reason}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' }, fontVariantNumeric: 'tabular-nums' }}>
                      {grouped.format(row.points)} PV
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, whiteSpace: 'nowrap' }}>{formatDate(row.created_at)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
    </Card>
  );
}
