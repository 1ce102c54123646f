import { Box, Card, CardContent, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import Insights from '@mui/icons-material/InsightsOutlined';
import HelpOutline from '@mui/icons-material/HelpOutline';
import { useMember } from '../../auth/member-context';
import { useSettings, useTotalPv } from '../../api/earnings-queries';
import { CardTitle, grouped } from './common';


// ── CPV ──────────────────────────────────────────────────────────────────────────────────

export function CpvCard() {
  const user = useMember();
  const points = useTotalPv(user.uuid);
  const settings = useSettings();
  const unit = settings.data?.unit_point_value;
  const cpv = points.data?.cpv ?? points.data?.total_pv;
  return (
    <Card component="section" aria-labelledby="cpv-title" data-testid="cpv-card" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 }, height: '100%', display: 'flex', flexDirection: 'column' }}>
        <CardTitle
          icon={<Insights color="primary" fontSize="small" />}
          title="CPV"
          id="cpv-title"
          action={
            <Tooltip title="Cumulative point value: your own PV plus the PV of everyone placed below you.">
              <HelpOutline fontSize="small" tabIndex={0} aria-label="What is CPV?" sx={{ color: 'text.secondary' }} />
            </Tooltip>
          }
        />
        {points.isPending ? (
          <Skeleton width="50%" height={48} />
        ) : typeof cpv === 'number' ? (
          <Typography data-testid="cpv-value" sx={{ fontSize: { xs: '2rem', sm: '2.25rem' }, fontWeight: 750, lineHeight: 1.15, fontVariantNumeric: 'tabular-nums' }}>
            {grouped.format(cpv)} <Typography component="span" sx={{ fontSize: '1rem', fontWeight: 600, color: 'text.secondary' }}>PV</Typography>
          </Typography>
        ) : (
          <Typography color="text.secondary" data-testid="cpv-unavailable">
            Your points are not available right now.
          </Typography>
        )}
        {points.data?.rank_name && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            Rank: <Box component="strong" sx={{ color: 'text.primary' }} data-testid="cpv-rank">{points.data.rank_name}</Box>
          </Typography>
        )}
        {points.data && (
          <Stack direction="row" spacing={3} sx={{ mt: 1.5 }}>
            {(
              [
                ['Personal PV', points.data.personal_pv],
                ['Left leg', points.data.left_pv],
                ['Right leg', points.data.right_pv],
              ] as const
            ).map(([label, value]) => (
              <Box key={label}>
                <Typography variant="caption" color="text.secondary">
                  {label}
                </Typography>
                <Typography sx={{ fontWeight: 650, fontVariantNumeric: 'tabular-nums' }}>{grouped.format(value ?? 0)}</Typography>
              </Box>
            ))}
          </Stack>
        )}
        <Box sx={{ mt: 'auto', pt: 2 }}>
          <Box sx={{ px: 1.5, py: 1, borderRadius: 2, bgcolor: '#eef7f1', display: 'inline-flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="caption" color="text.secondary">
              Official rate
            </Typography>
            {settings.isPending ? (
              <Skeleton width={110} />
            ) : (
              <Typography variant="body2" sx={{ fontWeight: 700 }} data-testid="pv-rate">
                {typeof unit === 'number' ? `1 PV = ${grouped.format(unit)} NGN` : '—'}
              </Typography>
            )}
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
