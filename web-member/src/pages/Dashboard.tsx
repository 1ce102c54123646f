import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Divider,
  InputAdornment,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import Grid from '@mui/material/Grid';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Inventory from '@mui/icons-material/Inventory2Outlined';
import PeopleAlt from '@mui/icons-material/PeopleAltOutlined';
import CompareArrows from '@mui/icons-material/CompareArrowsOutlined';
import ShoppingBag from '@mui/icons-material/ShoppingBagOutlined';
import AccountTree from '@mui/icons-material/AccountTreeOutlined';
import TrendingUp from '@mui/icons-material/TrendingUpOutlined';
import Storefront from '@mui/icons-material/StorefrontOutlined';
import Public from '@mui/icons-material/PublicOutlined';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWalletOutlined';
import EmojiEvents from '@mui/icons-material/EmojiEventsOutlined';
import Insights from '@mui/icons-material/InsightsOutlined';
import PersonAddAlt from '@mui/icons-material/PersonAddAltOutlined';
import ContentCopy from '@mui/icons-material/ContentCopyOutlined';
import Check from '@mui/icons-material/Check';
import Campaign from '@mui/icons-material/CampaignOutlined';
import Send from '@mui/icons-material/SendOutlined';
import HelpOutline from '@mui/icons-material/HelpOutline';
import { profileMessages } from '@portal/services/contracts/profile';
import { useMember } from '../auth/member-context';
import { usePackage } from '../api/queries';
import { earningsApi, type BonusStats, type CurrentIncentive } from '../api/earnings';
import {
  earningsKeys,
  useBonusStats,
  useCurrentIncentive,
  useIncentiveClaims,
  useRankBadge,
  useSettings,
  useTotalPv,
} from '../api/earnings-queries';
import { MatchingStatusCard } from '../components/MatchingStatus';
import { formatDate } from '../lib/dates';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';
import { referralLink } from '../lib/referral-link';
import { copyText } from '../lib/clipboard';
import CardGiftcard from '@mui/icons-material/CardGiftcardOutlined';
import Balance from '@mui/icons-material/BalanceOutlined';
import Loyalty from '@mui/icons-material/LoyaltyOutlined';
import Inventory2 from '@mui/icons-material/Inventory2Outlined';
import Savings from '@mui/icons-material/SavingsOutlined';
import { storageUrl } from '../lib/storage';

/** Seed 000 §8 wording. */
const NO_CLAIMS = 'There are no claimed incentives';
const NOT_QUALIFIED_FOR_INCENTIVE = 'You are yet to qualify for an incentive';
const INCENTIVE_CLAIMED = 'incentive claimed successfully';
const LINK_COPIED = 'Referral Link Copied';
/** Seed 000 §4: global profit needs rank 5 or above (used when the server sends no flag). */
const GLOBAL_PROFIT_MIN_RANK = 5;

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

function greeting(now = new Date()): string {
  const h = now.getHours();
  if (h < 12) return 'Good morning';
  if (h < 17) return 'Good afternoon';
  return 'Good evening';
}

function CardTitle({ icon, title, id, action }: { icon: ReactNode; title: string; id: string; action?: ReactNode }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5, minHeight: 32 }}>
      {icon}
      <Typography id={id} variant="h6" component="h2" sx={{ flex: 1 }}>
        {title}
      </Typography>
      {action}
    </Stack>
  );
}

function SectionHeading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="overline" component="h2" color="text.secondary" sx={{ display: 'block', mt: { xs: 1, sm: 2 }, mb: -1 }}>
      {children}
    </Typography>
  );
}

// ── Registration package ─────────────────────────────────────────────────────────────────

function PackageCard() {
  const user = useMember();
  const pkg = usePackage(user.package_id);
  return (
    <Card
      data-testid="package-card"
      sx={{
        height: '100%',
        color: '#fff',
        border: 'none',
        background: 'radial-gradient(circle at 100% 0%, rgba(159,224,184,0.25), transparent 50%), linear-gradient(145deg, #2f8a57 0%, #174a30 100%)',
      }}
    >
      <CardContent sx={{ p: { xs: 2.5, sm: 3 }, height: '100%', display: 'flex', flexDirection: 'column' }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 2.5 }}>
          <Box sx={{ width: 44, height: 44, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: 'rgba(255,255,255,0.15)' }}>
            <Inventory />
          </Box>
          <Chip
            icon={<VerifiedOutlined sx={{ color: 'inherit !important' }} />}
            label="Activated"
            size="small"
            data-testid="package-status"
            sx={{ bgcolor: 'rgba(255,255,255,0.92)', color: 'primary.dark' }}
          />
        </Stack>
        <Typography variant="overline" sx={{ opacity: 0.8, lineHeight: 1.6 }}>
          Registration package
        </Typography>
        {pkg.isPending ? (
          <>
            <Skeleton sx={{ bgcolor: 'rgba(255,255,255,0.2)' }} width="45%" height={40} />
            <Skeleton sx={{ bgcolor: 'rgba(255,255,255,0.2)' }} width="35%" height={28} />
          </>
        ) : pkg.data ? (
          <>
            <Typography variant="h4" component="p" data-testid="package-name" sx={{ fontSize: { xs: '1.6rem', sm: '1.9rem' } }}>
              {pkg.data.name}
            </Typography>
            <Typography data-testid="package-value" sx={{ mt: 0.5, opacity: 0.9, fontSize: '1.1rem', fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
              {formatNaira(pkg.data.registration_value)}
            </Typography>
            <Stack direction="row" spacing={4} sx={{ mt: 'auto', pt: 2.5 }}>
              <Box>
                <Typography variant="caption" sx={{ opacity: 0.75 }}>
                  Point value
                </Typography>
                <Typography sx={{ fontWeight: 650 }}>{pkg.data.point_value} PV</Typography>
              </Box>
              <Box>
                <Typography variant="caption" sx={{ opacity: 0.75 }}>
                  Pick-up allowance
                </Typography>
                <Typography sx={{ fontWeight: 650, fontVariantNumeric: 'tabular-nums' }}>{formatNaira(pkg.data.pickup_amount)}</Typography>
              </Box>
            </Stack>
          </>
        ) : (
          <Typography sx={{ opacity: 0.85 }}>Package details could not be loaded.</Typography>
        )}
      </CardContent>
    </Card>
  );
}

// ── CPV ──────────────────────────────────────────────────────────────────────────────────

function CpvCard() {
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

function IncentiveCard() {
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

function BonusCards() {
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

// ── Invite a friend and the referral link ────────────────────────────────────────────────

const inviteForm = z.object({ email: z.string().trim().min(1, 'The email field is required.').pipe(z.email('The email must be a valid email address.')) });
type InviteForm = z.infer<typeof inviteForm>;


function InviteCard() {
  const user = useMember();
  const [placement, setPlacement] = useState('');
  const [copied, setCopied] = useState(false);
  const link = referralLink(window.location.origin, user.username, placement);
  useEffect(() => setCopied(false), [link]);

  const form = useForm<InviteForm>({ resolver: zodResolver(inviteForm), defaultValues: { email: '' } });
  const onInvite = form.handleSubmit(async ({ email }) => {
    try {
      const res = await earningsApi.inviteGuest(user.uuid, { email, referrer: placement.trim() || null });
      toast.success(res.message || profileMessages.friendInvited);
      form.reset({ email: '' });
    } catch {
      /* shown by the client */
    }
  });

  const copy = async () => {
    if (await copyText(link)) setCopied(true);
    else toast.warning('Copy the link by hand: your browser did not allow copying.');
  };

  return (
    <Card component="section" aria-labelledby="invite-title" data-testid="invite-card" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<PersonAddAlt color="primary" fontSize="small" />} title="Invite a friend" id="invite-title" />
        <TextField
          label="Placement (optional)"
          size="small"
          name="placement"
          value={placement}
          onChange={(e) => setPlacement(e.target.value)}
          autoComplete="off"
          helperText="A member of your downline to place your friend under. You remain their sponsor."
          slotProps={{ input: { startAdornment: <InputAdornment position="start">@</InputAdornment> } }}
          sx={{ mb: 2 }}
        />
        <Box component="form" noValidate onSubmit={onInvite} aria-label="Invite a friend">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.25} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label="Friend's email"
              type="email"
              size="small"
              required
              autoComplete="off"
              {...form.register('email')}
              error={!!form.formState.errors.email}
              helperText={form.formState.errors.email?.message}
            />
            <Button type="submit" variant="contained" startIcon={<Send />} disabled={form.formState.isSubmitting} sx={{ flexShrink: 0, height: 40 }}>
              {form.formState.isSubmitting ? 'Sending…' : 'Invite'}
            </Button>
          </Stack>
        </Box>
        <Divider sx={{ my: 2.5 }} />
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          Your referral link
        </Typography>
        <Box
          data-testid="referral-link"
          sx={{
            px: 1.5,
            py: 1.1,
            mb: 1.25,
            borderRadius: 2,
            bgcolor: '#f4f7f5',
            border: '1px dashed #cfdcd4',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
            fontSize: '0.85rem',
            overflowWrap: 'anywhere',
          }}
        >
          {link}
        </Box>
        <Button variant={copied ? 'contained' : 'outlined'} color={copied ? 'success' : 'primary'} startIcon={copied ? <Check /> : <ContentCopy />} onClick={copy} data-testid="copy-referral-link">
          {copied ? LINK_COPIED : 'Copy Referral Link'}
        </Button>
      </CardContent>
    </Card>
  );
}

// ── General message ──────────────────────────────────────────────────────────────────────

function GeneralMessageCard() {
  const settings = useSettings();
  const subject = settings.data?.general_message_subject?.trim();
  const message = settings.data?.general_message?.trim();
  return (
    <Card component="section" aria-labelledby="general-message-title" data-testid="general-message" sx={{ height: '100%', bgcolor: '#fffaf0', borderColor: '#f3e2bd' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<Campaign color="secondary" fontSize="small" />} title="General Message" id="general-message-title" />
        {settings.isPending ? (
          <>
            <Skeleton width="60%" height={28} />
            <Skeleton />
            <Skeleton width="80%" />
          </>
        ) : subject || message ? (
          <>
            {subject && (
              <Typography sx={{ fontWeight: 700, mb: 0.75 }} data-testid="general-message-subject">
                {subject}
              </Typography>
            )}
            {message && (
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }} data-testid="general-message-body">
                {message}
              </Typography>
            )}
          </>
        ) : (
          <Typography variant="body2" color="text.secondary">
            There is no message at the moment.
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

// ── Claimed incentives ───────────────────────────────────────────────────────────────────

function ClaimedIncentivesCard() {
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

// ── The page ─────────────────────────────────────────────────────────────────────────────

export default function DashboardPage() {
  const user = useMember();
  return (
    <>
      <Box sx={{ mb: { xs: 2.5, sm: 3.5 } }}>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.45rem', sm: '1.75rem' } }}>
          {greeting()}, {user.first_name}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Your package, points, bonuses and incentives at a glance.
        </Typography>
      </Box>

      <Grid container spacing={{ xs: 2, sm: 3 }}>
        <Grid size={{ xs: 12, md: 6, lg: 4 }}>
          <PackageCard />
        </Grid>
        <Grid size={{ xs: 12, md: 6, lg: 4 }}>
          <CpvCard />
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <IncentiveCard />
        </Grid>

        <Grid size={12}>
          <SectionHeading>Earnings</SectionHeading>
        </Grid>
        <BonusCards />
        <Grid size={12}>
          <MatchingStatusCard />
        </Grid>

        <Grid size={{ xs: 12, md: 7 }}>
          <InviteCard />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <GeneralMessageCard />
        </Grid>

        <Grid size={12}>
          <ClaimedIncentivesCard />
        </Grid>
      </Grid>
    </>
  );
}
