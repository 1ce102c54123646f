import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  MenuItem,
  Pagination,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import Grid from '@mui/material/Grid';
import TrendingUp from '@mui/icons-material/TrendingUpOutlined';
import CreditCard from '@mui/icons-material/CreditCardOutlined';
import Receipt from '@mui/icons-material/ReceiptLongOutlined';
import History from '@mui/icons-material/HistoryOutlined';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { paymentMessages, type PackageDifference, type PackagePayment } from '@portal/services/contracts/payments';
import { useMember } from '../auth/member-context';
import { AWAITING_ADMIN, paymentsApi, type PackagePaymentTarget } from '../api/payments';
import { queryKeys, usePackageDifference, usePackages, useUpgradeHistory } from '../api/queries';
import { formatDate } from '../lib/dates';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';
import { CardPaymentDialog, UPGRADE_VERIFY_AFTER_MS, type CardPayment } from './CardPaymentDialog';
import { ReceiptUpload } from './ReceiptUpload';
import { BankTransferDetails } from './BankTransferDetails';
import { transferReference } from '@portal/services/contracts/bank-transfer';

export const SELECT_PACKAGE_FOR_UPGRADE = 'Select a package for upgrade';

const statusColor = (status: string): 'success' | 'warning' | 'error' | 'default' =>
  status === 'approved' ? 'success' : status === 'declined' ? 'error' : status === 'pending' || status === 'amount_mismatch' || status === 'not_applied' ? 'warning' : 'default';
const statusLabel = (status: string) => ({ approved: 'Approved', declined: 'Declined', pending: 'Pending', amount_mismatch: 'Under review', not_applied: 'Under review' })[status] ?? status;

function UpgradeSummary({ difference }: { difference: PackageDifference }) {
  const tile = (label: string, name: string, pickup: number, highlight = false) => (
    <Box sx={{ flex: 1, minWidth: 0, p: 1.75, borderRadius: 2, border: 1, borderColor: highlight ? 'primary.light' : 'divider', bgcolor: highlight ? '#f4faf6' : 'background.paper' }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography sx={{ fontWeight: 700 }} noWrap>
        {name}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        Pick-up {formatNaira(pickup)}
      </Typography>
    </Box>
  );
  return (
    <Box data-testid="upgrade-summary">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        {tile('Current package', difference.current_package.name, difference.current_package.pickup_amount)}
        <ArrowForward color="action" fontSize="small" sx={{ flexShrink: 0 }} />
        {tile('New package', difference.new_package.name, difference.new_package.pickup_amount, true)}
      </Stack>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', mt: 2, px: 0.5 }}>
        <Typography color="text.secondary">Amount to pay</Typography>
        <Typography variant="h5" component="p" color="primary.dark" data-testid="upgrade-amount" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatNaira(difference.package_difference)}
        </Typography>
      </Stack>
    </Box>
  );
}

/**
 * Upgrading to a higher package (seed 000 §2.6, §4, §5): choose the package, see what it costs
 * (the difference), pay by card or upload a receipt.
 */
export function PackageUpgradeCard() {
  const user = useMember();
  const queryClient = useQueryClient();
  const packages = usePackages();
  const [packageId, setPackageId] = useState<number | null>(null);
  const difference = usePackageDifference(user.uuid, packageId);
  const [payment, setPayment] = useState<CardPayment | null>(null);
  const [starting, setStarting] = useState(false);
  const history = useUpgradeHistory(user.uuid, 1);
  const waiting = history.data?.data.find((p) => AWAITING_ADMIN.has(p.status));
  const higher = (packages.data ?? []).filter((p) => p.id > user.package_id);
  const ready = packageId !== null && difference.data ? difference.data : null;

  const target = (): PackagePaymentTarget | null => {
    if (!ready || packageId === null) {
      toast.warning(SELECT_PACKAGE_FOR_UPGRADE);
      return null;
    }
    return { amount: ready.package_difference, description: `Package upgrade to ${ready.package_name}`, isUpgrade: true, packageId };
  };

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.me }),
      queryClient.invalidateQueries({ queryKey: queryKeys.payments(user.uuid) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.profile(user.uuid) }),
    ]);
  };

  const payByCard = async () => {
    const t = target();
    if (!t) return;
    setStarting(true);
    try {
      const res = await paymentsApi.initiateCard(t);
      setPayment({ authorization_url: res.data.authorization_url, reference: res.data.reference });
    } catch {
      /* shown by the client */
    } finally {
      setStarting(false);
    }
  };

  const uploadReceipt = async (file: File) => {
    const t = target();
    if (!t) return false;
    try {
      const res = await paymentsApi.uploadReceipt(t, file);
      toast.success(res.message || paymentMessages.receiptUploaded);
      setPackageId(null);
      await refresh();
      return true;
    } catch {
      return false;
    }
  };

  return (
    <Card component="section" aria-labelledby="upgrade-title">
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
          <TrendingUp color="primary" fontSize="small" />
          <Typography id="upgrade-title" variant="h6" component="h2">
            Upgrade your package
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
          Move up to a higher package by paying the difference between its registration value and your current package’s.
        </Typography>

        {packages.isPending || history.isPending ? (
          <Skeleton variant="rounded" height={56} />
        ) : waiting ? (
          <Alert severity="info" data-testid="upgrade-awaiting-approval">
            Your upgrade to {waiting.package_name} ({formatNaira(waiting.amount)}) is awaiting approval by an administrator. You can choose another upgrade once it is decided.
          </Alert>
        ) : higher.length === 0 ? (
          <Alert severity="success" data-testid="upgrade-top">
            You are on the highest package.
          </Alert>
        ) : (
          <Stack spacing={2.5}>
            <TextField
              select
              label="Package to upgrade to"
              value={packageId === null ? '' : String(packageId)}
              onChange={(e) => setPackageId(Number(e.target.value) || null)}
              data-testid="upgrade-package-select"
              helperText="Only packages above your current one are listed."
            >
              {higher.map((p) => (
                <MenuItem key={p.id} value={String(p.id)}>
                  <Box sx={{ display: 'flex', justifyContent: 'space-between', width: '100%', gap: 2 }}>
                    <span>{p.name}</span>
                    <Typography component="span" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatNaira(p.registration_value)}
                    </Typography>
                  </Box>
                </MenuItem>
              ))}
            </TextField>

            {packageId !== null && (difference.isPending ? <Skeleton variant="rounded" height={120} /> : difference.data ? <UpgradeSummary difference={difference.data} /> : null)}

            <Grid container spacing={2}>
              <Grid size={{ xs: 12, md: 6 }}>
                <Box sx={{ p: 2, borderRadius: 2, border: 1, borderColor: 'divider', height: '100%', display: 'flex', flexDirection: 'column' }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.75 }}>
                    <CreditCard color="primary" fontSize="small" />
                    <Typography variant="subtitle2" component="h3">
                      Pay by card
                    </Typography>
                  </Stack>
                  <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                    Your package changes as soon as the payment is verified.
                  </Typography>
                  <Button variant="contained" onClick={() => void payByCard()} disabled={starting} sx={{ mt: 'auto' }} data-testid="upgrade-pay-card">
                    {starting ? 'Opening payment…' : ready ? `Pay ${formatNaira(ready.package_difference)} by card` : 'Pay by card'}
                  </Button>
                </Box>
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <Box sx={{ p: 2, borderRadius: 2, border: 1, borderColor: 'divider', height: '100%' }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.75 }}>
                    <Receipt color="primary" fontSize="small" />
                    <Typography variant="subtitle2" component="h3">
                      Upload a payment receipt
                    </Typography>
                  </Stack>
                  <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
                    Paid by bank transfer? An administrator approves your receipt.
                  </Typography>
                  <BankTransferDetails amount={ready?.package_difference} reference={transferReference('upgrade', user.username, packageId)} />
                  <ReceiptUpload onUpload={uploadReceipt} buttonLabel="Upload receipt" />
                </Box>
              </Grid>
            </Grid>
          </Stack>
        )}
      </CardContent>

      <CardPaymentDialog
        payment={payment}
        title="Pay for your upgrade"
        verifyAfterMs={UPGRADE_VERIFY_AFTER_MS}
        onClose={() => {
          setPayment(null);
          void refresh();
        }}
        onVerified={async () => {
          setPayment(null);
          setPackageId(null);
          await refresh();
        }}
      />
    </Card>
  );
}

function HistoryRows({ rows }: { rows: PackagePayment[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label="Upgrade history">
        <TableHead>
          <TableRow>
            <TableCell>Upgrade</TableCell>
            <TableCell align="right">Amount</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Paid by</TableCell>
            <TableCell>Status</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Date</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {row.previous_package_name ? `${row.previous_package_name} → ${row.package_name}` : row.package_name}
                </Typography>
                {row.status === 'declined' && row.status_reason && (
                  <Typography variant="caption" color="error">
                    {row.status_reason}
                  </Typography>
                )}
                <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', md: 'none' } }}>
                  {formatDate(row.created_at)}
                </Typography>
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                {formatNaira(row.amount)}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{row.payment_type === 'pop' ? 'Receipt' : 'Card'}</TableCell>
              <TableCell>
                <Chip size="small" label={statusLabel(row.status)} color={statusColor(row.status)} variant="outlined" />
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, whiteSpace: 'nowrap' }}>{formatDate(row.created_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function UpgradeHistoryCard() {
  const user = useMember();
  const [page, setPage] = useState(1);
  const history = useUpgradeHistory(user.uuid, page);
  const rows = history.data?.data ?? [];
  return (
    <Card component="section" aria-labelledby="upgrade-history-title">
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
          <History color="primary" fontSize="small" />
          <Typography id="upgrade-history-title" variant="h6" component="h2">
            Upgrade history
          </Typography>
        </Stack>
        {history.isPending ? (
          <Skeleton variant="rounded" height={96} />
        ) : rows.length === 0 ? (
          <Typography variant="body2" color="text.secondary" data-testid="upgrade-history-empty">
            There are no upgrades yet.
          </Typography>
        ) : (
          <>
            <HistoryRows rows={rows} />
            {(history.data?.last_page ?? 1) > 1 && (
              <Pagination sx={{ mt: 2, display: 'flex', justifyContent: 'center' }} count={history.data!.last_page} page={page} onChange={(_e, p) => setPage(p)} />
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
