import { type ReactNode } from 'react';
import { Alert, Box, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import Grid from '@mui/material/Grid';
import PeopleAlt from '@mui/icons-material/PeopleAltOutlined';
import CompareArrows from '@mui/icons-material/CompareArrowsOutlined';
import ShoppingBag from '@mui/icons-material/ShoppingBagOutlined';
import AccountTree from '@mui/icons-material/AccountTreeOutlined';
import TrendingUp from '@mui/icons-material/TrendingUpOutlined';
import Storefront from '@mui/icons-material/StorefrontOutlined';
import Public from '@mui/icons-material/PublicOutlined';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWalletOutlined';
import EmojiEvents from '@mui/icons-material/EmojiEventsOutlined';
import { useMember } from '../../auth/member-context';
import { type BonusStats } from '../../api/earnings';
import { useBonusStats, useTotalPv } from '../../api/earnings-queries';
import { formatNaira } from '../../lib/money';
import CardGiftcard from '@mui/icons-material/CardGiftcardOutlined';
import Balance from '@mui/icons-material/BalanceOutlined';
import Loyalty from '@mui/icons-material/LoyaltyOutlined';
import Inventory2 from '@mui/icons-material/Inventory2Outlined';
import Savings from '@mui/icons-material/SavingsOutlined';

/** Seed 000 §4: global profit needs rank 5 or above (used when the server sends no flag). */
const GLOBAL_PROFIT_MIN_RANK = 5;

// ── Bonus cards ──────────────────────────────────────────────────────────────────────────

function Amount({ value, testId, size = 'normal' }: { value: number | undefined; testId: string; size?: 'normal' | 'large' }) {
  return (
    <Typography
      data-testid={testId}
      sx={{
        fontWeight: 750,
        fontVariantNumeric: 'tabular-nums',
        lineHeight: 1.2,
        fontSize: size === 'large' ? { xs: '1.6rem', sm: '1.9rem' } : { xs: '1.05rem', sm: '1.3rem' },
        overflowWrap: 'anywhere',
      }}
    >
      {formatNaira(value ?? 0)}
    </Typography>
  );
}

function StatCard({ label, hint, icon, value, loading, testId, children, tone = 'default' }: {
  label: string;
  hint?: string;
  icon: ReactNode;
  value: number | undefined;
  loading: boolean;
  testId: string;
  children?: ReactNode;
  tone?: 'default' | 'highlight';
}) {
  const highlight = tone === 'highlight';
  return (
    <Card
      data-testid={testId}
      sx={{
        height: '100%',
        ...(highlight && { bgcolor: '#113824', color: '#fff', border: 'none' }),
      }}
    >
      <CardContent sx={{ p: { xs: 1.75, sm: 2.25 }, '&:last-child': { pb: { xs: 1.75, sm: 2.25 } }, height: '100%', display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="body2" sx={{ fontWeight: 600, fontSize: '0.85rem', color: highlight ? 'rgba(255,255,255,0.8)' : 'text.secondary', lineHeight: 1.3 }}>
            {label}
          </Typography>
          <Box
            sx={{
              width: 30,
              height: 30,
              flexShrink: 0,
              borderRadius: 1.5,
              display: { xs: 'none', sm: 'grid' },
              '& svg': { fontSize: 18 },
              placeItems: 'center',
              bgcolor: highlight ? 'rgba(255,255,255,0.12)' : '#eef7f1',
              color: highlight ? '#9fe0b8' : 'primary.main',
            }}
          >
            {icon}
          </Box>
        </Stack>
        {loading ? <Skeleton width="70%" height={32} sx={highlight ? { bgcolor: 'rgba(255,255,255,0.15)' } : undefined} /> : <Amount value={value} testId={`${testId}-amount`} />}
        {hint && (
          <Typography variant="caption" sx={{ color: highlight ? 'rgba(255,255,255,0.7)' : 'text.secondary', lineHeight: 1.35 }}>
            {hint}
          </Typography>
        )}
        {children}
      </CardContent>
    </Card>
  );
}

function globalProfitQualified(stats: BonusStats | undefined, rankId: number | null): boolean {
  if (typeof stats?.global_profit_qualified === 'boolean') return stats.global_profit_qualified;
  return rankId !== null && rankId >= GLOBAL_PROFIT_MIN_RANK;
}

export function BonusCards() {
  const user = useMember();
  const stats = useBonusStats(user.uuid);
  const points = useTotalPv(user.uuid);
  const s = stats.data;
  const loading = stats.isPending;
  const qualified = globalProfitQualified(s, points.data?.rank_id ?? user.rank_id ?? null);
  const cards: Array<{ key: string; label: string; hint?: string; icon: ReactNode; value: number | undefined }> = [
    { key: 'referral', label: 'Referral Bonus', hint: 'Referral and placement', icon: <PeopleAlt fontSize="small" />, value: s ? s.referral_bonus + s.placement_bonus : undefined },
    { key: 'matching', label: 'Matching Bonus', icon: <CompareArrows fontSize="small" />, value: s?.matching_bonus },
    { key: 'repurchase', label: 'Repurchase Bonus', icon: <ShoppingBag fontSize="small" />, value: s?.repurchase_bonus },
    { key: 'unilevel', label: 'Unilevel Bonus', icon: <AccountTree fontSize="small" />, value: s?.unilevel_bonus },
    { key: 'upgrade', label: 'Upgrade Bonus', icon: <TrendingUp fontSize="small" />, value: s?.upgrade_bonus },
    { key: 'signee', label: 'Signee Bonus', hint: 'Stockists you signed up', icon: <Storefront fontSize="small" />, value: s?.stockist_ref_bonus },
    { key: 'welcome', label: 'Welcome Bonus', icon: <CardGiftcard fontSize="small" />, value: s?.welcome_bonus },
    { key: 'equilibrium', label: 'Equilibrium Bonus', hint: 'Both legs active', icon: <Balance fontSize="small" />, value: s?.equilibrium_bonus },
    { key: 'loyalty', label: 'Loyalty Bonus', icon: <Loyalty fontSize="small" />, value: s?.loyalty_bonus },
    { key: 'award', label: 'Award Bonus', hint: 'Incentives won in your team', icon: <EmojiEvents fontSize="small" />, value: s?.award_bonus },
    { key: 'stockist', label: 'Stockist Bonus', hint: 'Upline and rebate', icon: <Inventory2 fontSize="small" />, value: s ? (s.stockist_upline_bonus ?? 0) + (s.stockist_rebate ?? 0) : undefined },
  ];
  if (stats.isError) {
    return (
      <Grid size={12}>
        <Alert severity="error">Your bonus figures could not be loaded.</Alert>
      </Grid>
    );
  }
  return (
    <>
      {cards.map((c) => (
        <Grid key={c.key} size={{ xs: 6, sm: 4, lg: 3 }}>
          <StatCard label={c.label} hint={c.hint} icon={c.icon} value={c.value} loading={loading} testId={`stat-${c.key}`} />
        </Grid>
      ))}
      <Grid size={{ xs: 6, sm: 4, lg: 3 }}>
        <StatCard label="Profit Pool" icon={<Savings fontSize="small" />} value={s?.profit_pool} loading={loading} testId="stat-profit-pool" />
      </Grid>
      <Grid size={{ xs: 6, sm: 4, lg: 3 }}>
        <StatCard label="Global Profit" icon={<Public fontSize="small" />} value={s?.global_profit} loading={loading} testId="stat-global-profit">
          {!loading && (
            <Box sx={{ mt: 'auto' }}>
              <Chip
                size="small"
                data-testid="global-profit-badge"
                color={qualified ? 'success' : 'default'}
                variant={qualified ? 'filled' : 'outlined'}
                label={qualified ? 'Qualified' : 'Not Qualified'}
              />
            </Box>
          )}
        </StatCard>
      </Grid>
      <Grid size={{ xs: 6, sm: 4, lg: 3 }}>
        <StatCard
          label="Total Wallet Earned"
          icon={<AccountBalanceWallet fontSize="small" />}
          value={s?.total_wallet_earned}
          loading={loading}
          testId="stat-total-earned"
          tone="highlight"
        />
      </Grid>
    </>
  );
}
