import { useState, type FormEvent, type ReactNode } from 'react';
import { CardTitle } from '../components/CardTitle';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  InputAdornment,
  Link,
  Skeleton,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
  Tooltip,
} from '@mui/material';
import Grid from '@mui/material/Grid';
import AccountBalanceWallet from '@mui/icons-material/AccountBalanceWalletOutlined';
import Savings from '@mui/icons-material/SavingsOutlined';
import Outbox from '@mui/icons-material/OutboxOutlined';
import ReceiptLong from '@mui/icons-material/ReceiptLongOutlined';
import Public from '@mui/icons-material/PublicOutlined';
import History from '@mui/icons-material/History';
import Autorenew from '@mui/icons-material/AutorenewOutlined';
import Payments from '@mui/icons-material/PaymentsOutlined';
import type { Settings } from '@portal/services/contracts/settings';
import { useMember } from '../auth/member-context';
import { queryKeys, useProfileDetails } from '../api/queries';
import { earningsApi, type BonusRow, type Withdrawal } from '../api/earnings';
import { useBonuses, useGlobalProfits, useSettings, useWalletBalance, useWithdrawals, walletDebited } from '../api/earnings-queries';
import { hasBankAccount } from '../lib/bank-account';
import { MatchingStatusCard } from '../components/MatchingStatus';
import { PageButtons } from '../components/PageButtons';
import { WalletStatement } from '../components/WalletStatement';
import { formatDate, formatDateTime } from '../lib/dates';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';
import { withdrawalStatusLabel, withdrawalStatusMeaning } from '@portal/services/contracts/statuses';
import { describeCharge, parseNaira, withdrawalAmountProblem, withdrawalFee } from '../lib/withdrawal';

/** Seed 000 §8 wording. */
const NO_BONUS = 'You have earned no bonus';
const NO_GLOBAL_PROFITS = 'There are no global profits';
const NO_WITHDRAWALS = 'There are no withdrawals';
const AMOUNT_UPDATED = 'Withdrawal amount updated successfully';
const WITHDRAWAL_REQUESTED = 'Withdrawal Request successful';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const ordinal = (n: number) => {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
};

/** When payouts go out (BUSINESS-RULES.md §4): weekly on a weekday 1–7 = Sunday–Saturday, monthly on a day. */
function payoutSchedule(settings: Pick<Settings, 'withdrawal_type' | 'withdrawal_period'>): string {
  const { withdrawal_type: type, withdrawal_period: period } = settings;
  if (type === 'weekly' && period && period >= 1 && period <= 7) return `Payouts are sent every ${WEEKDAYS[period - 1]}.`;
  if (type === 'monthly' && period) return `Payouts are sent on the ${ordinal(period)} of each month.`;
  return 'Payouts are sent as soon as they are requested.';
}

function Empty({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <Box data-testid={testId} sx={{ py: 4, textAlign: 'center', borderRadius: 2, bgcolor: '#f7faf8', border: '1px dashed #dbe5df' }}>
      <Typography variant="body2" color="text.secondary">
        {children}
      </Typography>
    </Box>
  );
}

const money = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

// ── Wallet summary ───────────────────────────────────────────────────────────────────────

function SummaryCard({ label, value, loading, icon, testId, note, highlight }: {
  label: string;
  value: number | undefined;
  loading: boolean;
  icon: ReactNode;
  testId: string;
  note?: ReactNode;
  highlight?: boolean;
}) {
  return (
    <Card
      data-testid={testId}
      sx={{
        height: '100%',
        ...(highlight && {
          color: '#fff',
          border: 'none',
          background: 'radial-gradient(circle at 100% 0%, rgba(159,224,184,0.25), transparent 50%), linear-gradient(145deg, #2f8a57 0%, #174a30 100%)',
        }),
      }}
    >
      <CardContent sx={{ p: { xs: 2.25, sm: 2.75 }, '&:last-child': { pb: { xs: 2.25, sm: 2.75 } } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <Box
            sx={{
              width: 42,
              height: 42,
              borderRadius: 2,
              flexShrink: 0,
              display: 'grid',
              placeItems: 'center',
              bgcolor: highlight ? 'rgba(255,255,255,0.15)' : '#eef7f1',
              color: highlight ? '#fff' : 'primary.main',
            }}
          >
            {icon}
          </Box>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 600, color: highlight ? 'rgba(255,255,255,0.82)' : 'text.secondary' }}>
              {label}
            </Typography>
            {loading ? (
              <Skeleton width={140} height={36} sx={highlight ? { bgcolor: 'rgba(255,255,255,0.2)' } : undefined} />
            ) : (
              <Typography data-testid={`${testId}-amount`} sx={{ fontSize: { xs: '1.45rem', sm: '1.65rem' }, fontWeight: 750, lineHeight: 1.25, ...money }}>
                {formatNaira(value ?? 0)}
              </Typography>
            )}
          </Box>
        </Stack>
        {note && !loading && (
          <Typography variant="caption" sx={{ display: 'block', mt: 1, color: highlight ? 'rgba(255,255,255,0.75)' : 'text.secondary' }}>
            {note}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function WalletFigures() {
  const user = useMember();
  const wallet = useWalletBalance(user.uuid);
  const w = wallet.data;
  const loading = wallet.isPending;
  if (wallet.isError) return <Alert severity="error">Your wallet could not be loaded.</Alert>;
  return (
    <Grid container spacing={{ xs: 2, sm: 3 }}>
      <Grid size={{ xs: 12, sm: 4 }}>
        <SummaryCard
          label="Total bonus"
          value={w?.total_bonus}
          loading={loading}
          icon={<Savings />}
          testId="wallet-total-bonus"
          note={
            w?.total_held || w?.total_withheld ? (
              <>
                {w.total_held ? (
                  <Box component="span" data-testid="wallet-total-held" sx={{ display: 'block' }}>
                    {formatNaira(w.total_held)} held until your registration payment is approved
                  </Box>
                ) : null}
                {w.total_withheld ? (
                  <Box component="span" sx={{ display: 'block' }}>
                    {formatNaira(w.total_withheld)} withheld and not counted
                  </Box>
                ) : null}
              </>
            ) : (
              'Every bonus credited to your wallet'
            )
          }
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <SummaryCard label="Total withdrawals" value={w?.total_withdrawn} loading={loading} icon={<Outbox />} testId="wallet-total-withdrawn" note="Requested, in progress and paid" />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <SummaryCard
          label="Wallet balance"
          value={w?.balance}
          loading={loading}
          icon={<AccountBalanceWallet />}
          testId="wallet-balance"
          highlight
          note={w && w.total_spent > 0 ? `After ${formatNaira(w.total_spent)} paid from your wallet` : 'Total bonus minus total withdrawals'}
        />
      </Grid>
    </Grid>
  );
}

/** Where the date sits: its own column on wide screens, under the explanation elsewhere. */
const dateColumn = { display: { xs: 'none', xl: 'table-cell' } } as const;
const dateInline = { display: { xs: 'block', xl: 'none' } } as const;

function BonusAmount({ row }: { row: BonusRow }) {
  const withheld = row.entry === 'withheld';
  const held = row.entry === 'held';
  return (
    <Typography
      component="span"
      variant="body2"
      aria-label={withheld ? `${formatNaira(row.amount)}, not paid` : held ? `${formatNaira(row.amount)}, held` : undefined}
      sx={{
        ...money,
        fontWeight: 650,
        ...(withheld && { color: 'text.disabled', textDecoration: 'line-through' }),
        ...(held && { color: 'text.secondary', fontStyle: 'italic' }),
      }}
    >
      {formatNaira(row.amount)}
    </Typography>
  );
}

/**
 * Each line with its explanation (why it was paid, or why not). On a phone the amount moves up
 * beside the type so the explanation has the row's whole width.
 */
function BonusTable({ rows }: { rows: BonusRow[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label="Bonuses">
        <TableHead>
          <TableRow>
            <TableCell>Type</TableCell>
            <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
              Amount
            </TableCell>
            <TableCell sx={dateColumn}>Date</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const withheld = row.entry === 'withheld';
            const held = row.entry === 'held';
            return (
              <TableRow key={row.id} data-entry={row.entry} sx={withheld ? { bgcolor: '#fbf7f2' } : held ? { bgcolor: '#f3f7fb' } : undefined}>
                <TableCell sx={{ py: 1.25 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
                    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.25 }}>
                      <Typography variant="body2" sx={{ fontWeight: 650, color: withheld || held ? 'text.secondary' : 'text.primary' }}>
                        {row.type}
                      </Typography>
                      {withheld && <Chip size="small" label="Not paid" color="warning" variant="outlined" sx={{ height: 20, fontSize: '0.7rem' }} />}
                      {held && <Chip size="small" label="Held" color="info" variant="outlined" sx={{ height: 20, fontSize: '0.7rem' }} data-testid="bonus-held" />}
                    </Stack>
                    <Box sx={{ display: { xs: 'block', sm: 'none' } }}>
                      <BonusAmount row={row} />
                    </Box>
                  </Stack>
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block', lineHeight: 1.45, mt: 0.25 }} data-testid="bonus-explanation">
                    {row.explanation}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" sx={{ ...dateInline, mt: 0.25, fontWeight: 600 }}>
                    {formatDateTime(row.created_at)}
                  </Typography>
                </TableCell>
                <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' }, verticalAlign: 'top', pt: 1.4, width: '1%' }}>
                  <BonusAmount row={row} />
                </TableCell>
                <TableCell sx={{ ...dateColumn, verticalAlign: 'top', pt: 1.4, whiteSpace: 'nowrap', color: 'text.secondary', width: '1%' }}>
                  {formatDateTime(row.created_at)}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function BonusesCard() {
  const user = useMember();
  const [page, setPage] = useState(1);
  const bonuses = useBonuses(user.uuid, page);
  const data = bonuses.data;
  return (
    <Card component="section" aria-labelledby="bonuses-title">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <CardTitle
          icon={<ReceiptLong color="primary" fontSize="small" />}
          title="Bonuses"
          id="bonuses-title"
          action={
            data && data.total > 0 ? (
              <Typography variant="caption" color="text.secondary" data-testid="bonuses-count">
                {data.total} {data.total === 1 ? 'entry' : 'entries'}
              </Typography>
            ) : undefined
          }
        />
        {bonuses.isPending ? (
          <Stack spacing={1}>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} variant="rounded" height={44} />
            ))}
          </Stack>
        ) : bonuses.isError && !data ? (
          <Alert severity="error">Your bonuses could not be loaded.</Alert>
        ) : !data || data.data.length === 0 ? (
          <Empty testId="bonuses-empty">{NO_BONUS}</Empty>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
              Newest first. Each line says why it was paid; a bonus marked <strong>Not paid</strong> says why it was withheld and is not in your total.
              {data.data.some((r) => r.entry === 'held') && (
                <>
                  {' '}
                  A bonus marked <strong>Held</strong> waits for your registration payment’s approval and is not in your balance yet.
                </>
              )}
            </Typography>
            <Box sx={{ opacity: bonuses.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
              <BonusTable rows={data.data} />
            </Box>
            <PageButtons label="Bonuses pages" page={page} lastPage={data.last_page} onChange={setPage} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function GlobalProfitsCard() {
  const user = useMember();
  const [page, setPage] = useState(1);
  const profits = useGlobalProfits(user.uuid, page);
  const data = profits.data;
  return (
    <Card component="section" aria-labelledby="global-profits-title" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <CardTitle icon={<Public color="primary" fontSize="small" />} title="Global profits" id="global-profits-title" />
        {profits.isPending ? (
          <Skeleton variant="rounded" height={96} />
        ) : profits.isError && !data ? (
          <Typography variant="body2" color="text.secondary" data-testid="global-profits-unavailable">
            Global profits could not be loaded right now.
          </Typography>
        ) : !data || data.data.length === 0 ? (
          <Empty testId="global-profits-empty">{NO_GLOBAL_PROFITS}</Empty>
        ) : (
          <>
            <TableContainer>
              <Table size="small" aria-label="Global profits">
                <TableHead>
                  <TableRow>
                    <TableCell>Profit</TableCell>
                    <TableCell>Date</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.data.map((row) => (
                    <TableRow key={row.id}>
                      <TableCell sx={{ ...money, fontWeight: 650 }}>{formatNaira(row.profit)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap', color: 'text.secondary' }}>{formatDate(row.share_date || row.created_at)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <PageButtons label="Global profits pages" page={page} lastPage={data.last_page} onChange={setPage} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function SummaryTab() {
  return (
    <Stack spacing={{ xs: 2, sm: 3 }}>
      <WalletFigures />
      <Grid container spacing={{ xs: 2, sm: 3 }}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <BonusesCard />
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Stack spacing={{ xs: 2, sm: 3 }}>
            <MatchingStatusCard variant="compact" />
            <GlobalProfitsCard />
          </Stack>
        </Grid>
      </Grid>
    </Stack>
  );
}

// ── Transactions ─────────────────────────────────────────────────────────────────────────

function ChargesNotice({ settings }: { settings: Settings | undefined }) {
  return (
    <Alert severity="info" data-testid="withdrawal-charges-notice" sx={{ borderRadius: 3 }}>
      <AlertTitle>About withdrawal charges</AlertTitle>
      Every withdrawal carries a charge{settings ? ` of ${describeCharge(settings)}` : ''}. These are third-party bank charges for sending the money to your
      bank account; they are taken from the amount you withdraw.
      {settings && (
        <>
          {' '}
          The minimum withdrawal is {formatNaira(settings.minimum_withdrawal > 0 ? settings.minimum_withdrawal : 1)}
          {settings.maximum_withdrawal > 0 ? ` and the maximum is ${formatNaira(settings.maximum_withdrawal)}` : ''}. {payoutSchedule(settings)}
        </>
      )}
    </Alert>
  );
}

function StandingAmountCard({ settings }: { settings: Settings | undefined }) {
  const user = useMember();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = withdrawalAmountProblem(value, settings, { allowZero: true });
    if (problem) {
      setError(problem);
      toast.warning(problem);
      return;
    }
    setError(null);
    setSaving(true);
    try {
      const res = await earningsApi.setWithdrawalAmount(parseNaira(value)!);
      toast.success(res.message || AMOUNT_UPDATED);
      setValue('');
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card component="section" aria-labelledby="standing-amount-title" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<Autorenew color="primary" fontSize="small" />} title="Withdrawal amount" id="standing-amount-title" />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          The amount each payout run withdraws for you automatically when your balance allows it. Enter 0 to stop automatic withdrawals.
        </Typography>
        <Box sx={{ mb: 2, px: 1.75, py: 1.25, borderRadius: 2, bgcolor: '#f4f7f5', display: 'flex', justifyContent: 'space-between', gap: 2, alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            Current amount
          </Typography>
          <Typography sx={{ fontWeight: 700, ...money }} data-testid="standing-amount">
            {user.withdrawal_amount > 0 ? formatNaira(user.withdrawal_amount) : 'Not set'}
          </Typography>
        </Box>
        <Box component="form" noValidate onSubmit={submit} aria-label="Withdrawal amount">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.25} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label="New withdrawal amount"
              name="withdrawal_amount"
              size="small"
              inputMode="decimal"
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                if (error) setError(null);
              }}
              error={!!error}
              helperText={error ?? ' '}
              slotProps={{ input: { startAdornment: <InputAdornment position="start">₦</InputAdornment> }, htmlInput: { inputMode: 'decimal' } }}
            />
            <Button type="submit" variant="contained" disabled={saving} sx={{ flexShrink: 0, height: 40 }}>
              {saving ? 'Saving…' : 'Save amount'}
            </Button>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}

function RequestWithdrawalCard({ settings }: { settings: Settings | undefined }) {
  const user = useMember();
  const queryClient = useQueryClient();
  const wallet = useWalletBalance(user.uuid);
  const details = useProfileDetails(user.uuid);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const amount = parseNaira(value);
  const fee = settings && amount && amount > 0 ? withdrawalFee(amount, settings) : null;
  const noBank = !details.isPending && !hasBankAccount(details.data);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let problem = withdrawalAmountProblem(value, settings);
    if (!problem && wallet.data && amount! > wallet.data.balance) problem = 'Insufficient wallet balance.';
    if (problem) {
      setError(problem);
      toast.warning(problem);
      return;
    }
    setError(null);
    setSending(true);
    try {
      const res = await earningsApi.requestWithdrawal(user.uuid, amount!);
      toast.success(res.message || WITHDRAWAL_REQUESTED);
      setValue('');
      await walletDebited(queryClient, user.uuid, { field: 'total_withdrawn', amount: amount! });
    } catch {
      /* shown by the client */
    } finally {
      setSending(false);
    }
  };

  return (
    <Card component="section" aria-labelledby="request-withdrawal-title" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<Payments color="primary" fontSize="small" />} title="Withdraw now" id="request-withdrawal-title" />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Ask for money now instead of waiting for the automatic amount. It is sent to your bank account with the next payout.
        </Typography>
        <Box sx={{ mb: 2, px: 1.75, py: 1.25, borderRadius: 2, bgcolor: '#f4f7f5', display: 'flex', justifyContent: 'space-between', gap: 2, alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            Available balance
          </Typography>
          {wallet.isPending ? (
            <Skeleton width={100} />
          ) : (
            <Typography sx={{ fontWeight: 700, ...money }} data-testid="available-balance">
              {formatNaira(wallet.data?.balance ?? 0)}
            </Typography>
          )}
        </Box>
        {noBank && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="withdraw-needs-bank">
            Add and verify your bank details before you withdraw.{' '}
            <Link component={RouterLink} to="/user/profile?tab=bank">
              Add bank details
            </Link>
          </Alert>
        )}
        <Box component="form" noValidate onSubmit={submit} aria-label="Withdraw now">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.25} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label="Amount to withdraw"
              name="amount"
              size="small"
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                if (error) setError(null);
              }}
              error={!!error}
              helperText={error ?? (fee !== null && amount ? `Charge ${formatNaira(fee)} · you receive ${formatNaira(Math.max(0, amount - fee))}` : ' ')}
              slotProps={{ input: { startAdornment: <InputAdornment position="start">₦</InputAdornment> }, htmlInput: { inputMode: 'decimal' } }}
            />
            <Button type="submit" variant="contained" color="secondary" disabled={sending || noBank} sx={{ flexShrink: 0, height: 40 }}>
              {sending ? 'Sending…' : 'Withdraw'}
            </Button>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}

const withdrawalStatusColor: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  pending: 'warning',
  processing: 'info',
  successful: 'success',
  failed: 'error',
};

function WithdrawalTable({ rows }: { rows: Withdrawal[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label="Withdrawal history">
        <TableHead>
          <TableRow>
            <TableCell align="right">Amount</TableCell>
            <TableCell align="right">Fee</TableCell>
            <TableCell>Status</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Type</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Date</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell align="right">
                <Typography variant="body2" sx={{ fontWeight: 650, ...money }}>
                  {formatNaira(row.amount)}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', md: 'none' }, whiteSpace: 'nowrap' }}>
                  {formatDate(row.created_at)}
                </Typography>
              </TableCell>
              <TableCell align="right" sx={{ ...money, verticalAlign: 'top' }}>
                {formatNaira(row.fee)}
              </TableCell>
              <TableCell sx={{ verticalAlign: 'top' }}>
                <Tooltip title={(withdrawalStatusMeaning as Record<string, string>)[row.status] ?? ''}>
                  <Chip size="small" variant="outlined" color={withdrawalStatusColor[row.status] ?? 'default'} label={withdrawalStatusLabel(row.status)} />
                </Tooltip>
                {row.status === 'failed' && row.failure_reason && (
                  <Typography variant="caption" color="error" sx={{ display: 'block', mt: 0.5 }}>
                    {row.failure_reason}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, verticalAlign: 'top' }}>
                {row.type === 'payout' ? 'Payout' : row.automatic ? 'Automatic withdrawal' : 'Withdrawal'}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, whiteSpace: 'nowrap', verticalAlign: 'top', color: 'text.secondary' }}>{formatDateTime(row.created_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function WithdrawalHistoryCard() {
  const user = useMember();
  const [page, setPage] = useState(1);
  const history = useWithdrawals(user.uuid, page);
  const data = history.data;
  return (
    <Card component="section" aria-labelledby="withdrawal-history-title">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <CardTitle icon={<History color="primary" fontSize="small" />} title="Withdrawal history" id="withdrawal-history-title" />
        {history.isPending ? (
          <Skeleton variant="rounded" height={96} />
        ) : history.isError && !data ? (
          <Alert severity="error">Your withdrawals could not be loaded.</Alert>
        ) : !data || data.data.length === 0 ? (
          <Empty testId="withdrawals-empty">{NO_WITHDRAWALS}</Empty>
        ) : (
          <>
            <WithdrawalTable rows={data.data} />
            <PageButtons label="Withdrawal history pages" page={page} lastPage={data.last_page} onChange={setPage} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function TransactionsTab() {
  const settings = useSettings();
  return (
    <Stack spacing={{ xs: 2, sm: 3 }}>
      <ChargesNotice settings={settings.data} />
      <Grid container spacing={{ xs: 2, sm: 3 }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <StandingAmountCard settings={settings.data} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <RequestWithdrawalCard settings={settings.data} />
        </Grid>
      </Grid>
      <WithdrawalHistoryCard />
    </Stack>
  );
}

// ── The page ─────────────────────────────────────────────────────────────────────────────

const TABS = [
  // "Wallet " only from sm up: on a 390 px phone the three tabs then fit whole, "Statement" included.
  { key: 'summary', label: 'Wallet Summary', shown: <><Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>Wallet </Box>Summary</> },
  { key: 'transactions', label: 'Transactions', shown: 'Transactions' },
  { key: 'statement', label: 'Statement', shown: 'Statement' },
] as const;

function StatementTab() {
  const user = useMember();
  return <WalletStatement memberId={user.uuid} />;
}

/** The wallet (seed 000 §2.7): what was earned and why, and withdrawals. */
export default function WalletPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'transactions' ? 'transactions' : params.get('tab') === 'statement' ? 'statement' : 'summary';
  return (
    <>
      <Box sx={{ mb: { xs: 2, sm: 3 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <AccountBalanceWallet color="primary" />
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.45rem', sm: '1.75rem' } }}>
            Wallet
          </Typography>
        </Stack>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Your bonuses, why each was paid, and your withdrawals to the bank.
        </Typography>
      </Box>
      <Tabs
        value={tab}
        onChange={(_e, value: string) => setParams(value === 'summary' ? {} : { tab: value }, { replace: true })}
        aria-label="Wallet sections"
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((t) => (
          <Tab key={t.key} value={t.key} label={t.shown} aria-label={t.label} id={`wallet-tab-${t.key}`} aria-controls={`wallet-panel-${t.key}`} sx={{ px: { xs: 1.5, sm: 2 }, minWidth: { xs: 0, sm: 90 } }} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`wallet-panel-${tab}`} aria-labelledby={`wallet-tab-${tab}`}>
        {tab === 'summary' ? <SummaryTab /> : tab === 'transactions' ? <TransactionsTab /> : <StatementTab />}
      </Box>
    </>
  );
}
