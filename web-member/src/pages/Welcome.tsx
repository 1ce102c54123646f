import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, AlertTitle, Box, Button, Card, CardContent, Chip, Container, Divider, Link, Skeleton, Stack, Typography } from '@mui/material';
import Grid from '@mui/material/Grid';
import LogoutIcon from '@mui/icons-material/Logout';
import HourglassTop from '@mui/icons-material/HourglassTopOutlined';
import Inventory from '@mui/icons-material/Inventory2Outlined';
import CreditCard from '@mui/icons-material/CreditCardOutlined';
import Receipt from '@mui/icons-material/ReceiptLongOutlined';
import AccountBalance from '@mui/icons-material/AccountBalanceOutlined';
import PendingActions from '@mui/icons-material/PendingActionsOutlined';
import EventBusy from '@mui/icons-material/EventBusyOutlined';
import Savings from '@mui/icons-material/SavingsOutlined';
import { paymentMessages, type PackagePayment } from '@portal/services/contracts/payments';
import type { RegistrationPackage } from '@portal/services/contracts/catalogue';
import { useMember } from '../auth/member-context';
import { homeFor } from '../auth/outcome';
import { AWAITING_ADMIN, paymentsApi, type PackagePaymentTarget } from '../api/payments';
import { queryKeys, usePackage, usePackagePayments, useProfileDetails } from '../api/queries';
import type { HeldBonuses } from '../api/earnings';
import { useHeldBonuses } from '../api/earnings-queries';
import { Logo } from '../components/Logo';
import { BankAccountSummary, BankDetailsForm } from '../components/BankDetailsForm';
import { CardPaymentDialog, WELCOME_VERIFY_AFTER_MS, type CardPayment } from '../components/CardPaymentDialog';
import { ReceiptUpload } from '../components/ReceiptUpload';
import { BankTransferDetails } from '../components/BankTransferDetails';
import { transferReference } from '@portal/services/contracts/bank-transfer';
import { LogoutDialog } from '../layout/LogoutDialog';
import { formatDateTime } from '../lib/dates';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';
import { registrationCountdown } from '../lib/registration-window';
import { storageUrl } from '../lib/storage';
import { formatDeadline } from '../lib/dates';

/** While a receipt waits for an admin, its status is checked again now and then. */
const PENDING_RECHECK_MS = 30_000;

function useNow(intervalMs = 15_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(t);
  }, [intervalMs]);
  return now;
}

function CountdownTile({ value, label, testId }: { value: number; label: string; testId: string }) {
  return (
    <Box sx={{ flex: 1, textAlign: 'center', py: 2, px: 1, borderRadius: 2, bgcolor: 'rgba(255,255,255,0.12)', border: '1px solid rgba(255,255,255,0.18)' }}>
      <Typography data-testid={testId} sx={{ fontSize: { xs: '2.25rem', sm: '2.75rem' }, fontWeight: 800, lineHeight: 1, fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Typography>
      <Typography variant="body2" sx={{ opacity: 0.85, mt: 0.75 }}>
        {label}
      </Typography>
    </Box>
  );
}

function SectionTitle({ icon, title, id }: { icon: ReactNode; title: string; id?: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
      {icon}
      <Typography id={id} variant="h6" component="h2">
        {title}
      </Typography>
    </Stack>
  );
}

/** A receipt an admin has not decided on yet. */
function ReceiptAwaitingApproval({ payment, onRefresh, refreshing }: { payment: PackagePayment; onRefresh: () => void; refreshing: boolean }) {
  const receipt = storageUrl(payment.payment_receipt);
  const isReceipt = payment.payment_type === 'pop';
  return (
    <Box data-testid="receipt-awaiting-approval" sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 2, border: 1, borderColor: '#f3d9a4', bgcolor: '#fffaf0' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
        {receipt ? (
          <Box
            component="a"
            href={receipt}
            target="_blank"
            rel="noopener"
            title="Open your receipt"
            sx={{ flexShrink: 0, width: { xs: 56, sm: 72 }, height: { xs: 56, sm: 72 }, borderRadius: 1.5, overflow: 'hidden', border: 1, borderColor: 'divider', display: 'block', bgcolor: '#fff' }}
          >
            <Box component="img" src={receipt} alt="Your uploaded receipt" sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
          </Box>
        ) : (
          <PendingActions sx={{ color: '#b7832f', fontSize: 40 }} />
        )}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
            <Typography variant="subtitle1" component="p">
              {isReceipt ? 'Receipt awaiting approval' : 'Payment under review'}
            </Typography>
            <Chip size="small" label="Pending" color="warning" />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {isReceipt
              ? `You uploaded a receipt for ${formatNaira(payment.amount)} on ${formatDateTime(payment.created_at)}. Your account is activated as soon as an administrator approves it.`
              : payment.status_reason || 'Your card payment was received and an administrator is reviewing it. Your account is activated once it is approved.'}
          </Typography>
          <Button size="small" variant="outlined" color="inherit" onClick={onRefresh} disabled={refreshing} sx={{ mt: 1.5, borderColor: 'divider', bgcolor: '#fff' }}>
            {refreshing ? 'Checking…' : 'Check status'}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/** Whole naira without the kobo (₦3,500), kobo only when there are some (₦3,500.50). */
const nairaHeadline = (amount: number) => formatNaira(amount).replace(/\.00$/, '');

/**
 * Bonuses the member already earned (their referrals paid) that wait for their own registration
 * payment's approval: credited when it is approved, not paid if it is declined or expires.
 */
function HeldBonusesNotice({ held, username }: { held: HeldBonuses; username: string }) {
  return (
    <Alert
      severity="success"
      icon={<Savings />}
      sx={{ mb: 3, '& .MuiAlert-message': { width: '100%', minWidth: 0 } }}
      data-testid="held-bonuses"
      role="status"
    >
      <AlertTitle sx={{ fontWeight: 700 }} data-testid="held-bonuses-title">
        {nairaHeadline(held.total_held)} waiting for your payment’s approval
      </AlertTitle>
      <Typography variant="body2" sx={{ mb: 1.25 }}>
        You have already earned {held.count === 1 ? 'a bonus' : `${held.count} bonuses`} through the members you referred. {held.count === 1 ? 'It is' : 'They are'} kept for
        you and credited to your wallet as soon as an administrator approves your registration payment. If the payment is declined or your
        registration expires, {held.count === 1 ? 'it is' : 'they are'} not paid.
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {held.lines.map((line) => (
          <Box
            component="li"
            key={line.id}
            data-testid="held-bonus-line"
            sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 2, py: 0.75, borderTop: 1, borderColor: 'rgba(35,113,70,0.18)' }}
          >
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 650 }}>
                {line.type}
                {line.generation ? ` · generation ${line.generation}` : ''}
              </Typography>
              {line.cause_username && line.cause_username !== username && (
                <Typography variant="caption" sx={{ display: 'block', opacity: 0.85, overflowWrap: 'anywhere' }} data-testid="held-bonus-cause">
                  Earned through {line.cause_username}
                </Typography>
              )}
            </Box>
            <Typography variant="body2" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
              {formatNaira(line.amount)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Alert>
  );
}

function PaymentOptions({
  username,
  pkg,
  payments,
  paymentsLoading,
  onPayNow,
  starting,
  onUploadReceipt,
  onRefresh,
  refreshing,
}: {
  username: string;
  pkg: RegistrationPackage | undefined;
  payments: PackagePayment[];
  paymentsLoading: boolean;
  onPayNow: () => void;
  starting: boolean;
  onUploadReceipt: (file: File) => Promise<boolean>;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const registration = payments.filter((p) => p.purpose === 'registration');
  const waiting = registration.find((p) => AWAITING_ADMIN.has(p.status));
  const latest = registration[0];
  const declined = latest?.status === 'declined' ? latest : undefined;

  if (paymentsLoading) return <Skeleton variant="rounded" height={180} />;
  if (waiting) return <ReceiptAwaitingApproval payment={waiting} onRefresh={onRefresh} refreshing={refreshing} />;

  return (
    <>
      {declined && (
        <Alert severity="error" sx={{ mb: 2.5 }} data-testid="receipt-declined">
          <AlertTitle>Your last {declined.payment_type === 'pop' ? 'receipt' : 'payment'} was declined</AlertTitle>
          {declined.status_reason || 'No reason was given.'} You can upload a new receipt or pay by card.
        </Alert>
      )}
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Box sx={{ p: 2.5, borderRadius: 2, border: 1, borderColor: 'divider', height: '100%', display: 'flex', flexDirection: 'column' }}>
            <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', mb: 1 }}>
              <CreditCard color="primary" />
              <Typography variant="subtitle1" component="h3">
                Card payment
              </Typography>
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              Pay online with your debit card on the payment provider’s secure page. Your account is activated as soon as the payment is verified.
            </Typography>
            <Box sx={{ mt: 'auto' }}>
              <Button variant="contained" size="large" fullWidth onClick={onPayNow} disabled={!pkg || starting} data-testid="pay-now">
                {starting ? 'Opening payment…' : pkg ? `Pay Now · ${formatNaira(pkg.registration_value)}` : 'Pay Now'}
              </Button>
            </Box>
          </Box>
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Box sx={{ p: 2.5, borderRadius: 2, border: 1, borderColor: 'divider', height: '100%' }}>
            <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', mb: 1 }}>
              <Receipt color="primary" />
              <Typography variant="subtitle1" component="h3">
                Bank transfer
              </Typography>
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              Pay into the company's account, then upload a photo or screenshot of your proof of payment for approval.
            </Typography>
            <BankTransferDetails amount={pkg?.registration_value} reference={transferReference('registration', username)} />
            <ReceiptUpload onUpload={onUploadReceipt} disabled={!pkg} buttonLabel="Upload receipt" />
          </Box>
        </Grid>
      </Grid>
    </>
  );
}

export default function WelcomePage() {
  const user = useMember();
  const now = useNow();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [logoutOpen, setLogoutOpen] = useState(false);
  const [payment, setPayment] = useState<CardPayment | null>(null);
  const [starting, setStarting] = useState(false);
  const pkg = usePackage(user.reg_package_id || user.package_id);
  const profile = useProfileDetails(user.uuid);
  const payments = usePackagePayments(user.uuid, {
    pollWhile: (rows) => rows.some((p) => p.purpose === 'registration' && AWAITING_ADMIN.has(p.status)),
    pollMs: PENDING_RECHECK_MS,
  });
  const awaitingAdmin = payments.data?.some((p) => p.purpose === 'registration' && AWAITING_ADMIN.has(p.status)) ?? false;
  const held = useHeldBonuses(user.uuid, { pollMs: awaitingAdmin ? PENDING_RECHECK_MS : undefined });

  // An admin approved a receipt (or the provider confirmed a card payment) while this page was open.
  const approved = payments.data?.some((p) => p.purpose === 'registration' && p.status === 'approved') ?? false;
  useEffect(() => {
    if (approved) void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  }, [approved, queryClient]);

  if (user.payment === 'approved') return <Navigate to={homeFor(user)} replace />;

  const countdown = registrationCountdown(user.created_at, now, user.registration_expires_at);
  const expired = user.registration_expired;
  const target = (p: RegistrationPackage): PackagePaymentTarget => ({
    amount: p.registration_value,
    description: `Registration payment for the ${p.name} package`,
    isUpgrade: false,
    packageId: p.id,
  });

  const payNow = async () => {
    if (!pkg.data) return;
    setStarting(true);
    try {
      const res = await paymentsApi.initiateCard(target(pkg.data));
      setPayment({ authorization_url: res.data.authorization_url, reference: res.data.reference });
    } catch {
      /* shown by the client */
    } finally {
      setStarting(false);
    }
  };

  const refreshPayments = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.payments(user.uuid) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  };

  const uploadReceipt = async (file: File) => {
    if (!pkg.data) return false;
    try {
      const res = await paymentsApi.uploadReceipt(target(pkg.data), file);
      toast.success(res.message || paymentMessages.receiptUploaded);
      await queryClient.invalidateQueries({ queryKey: queryKeys.payments(user.uuid) });
      return true;
    } catch {
      return false;
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        <Container maxWidth="lg" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, py: 1.5 }}>
          <Logo size={32} />
          <Button variant="outlined" color="inherit" startIcon={<LogoutIcon />} onClick={() => setLogoutOpen(true)} sx={{ borderColor: 'divider', flexShrink: 0 }}>
            Logout
          </Button>
        </Container>
      </Box>

      <Container component="main" maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.5rem', sm: '1.9rem' } }}>
          Welcome, {user.first_name} {user.last_name}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.75, mb: { xs: 3, sm: 4 }, maxWidth: 680 }}>
          Your account has been created. Pay for your registration package to activate it and open your member dashboard.
        </Typography>

        {expired && (
          <Alert severity="error" icon={<EventBusy />} sx={{ mb: 3 }} data-testid="registration-expired">
            <AlertTitle>Your registration has expired</AlertTitle>
            The 7-day window to pay for your registration has ended, so payments are closed for this account. An administrator must reinstate your
            registration before you can pay. Please contact support.
          </Alert>
        )}

        {held.data && held.data.total_held > 0 && <HeldBonusesNotice held={held.data} username={user.username} />}

        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 7 }}>
            <Card
              sx={{
                height: '100%',
                color: '#fff',
                border: 'none',
                background: expired
                  ? 'linear-gradient(150deg, #5b5f5c 0%, #2f3430 100%)'
                  : 'radial-gradient(circle at 90% 0%, rgba(159,224,184,0.22), transparent 50%), linear-gradient(150deg, #237146 0%, #113824 100%)',
              }}
            >
              <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', mb: 0.5 }}>
                  <HourglassTop fontSize="small" sx={{ mt: '3px' }} />
                  <Typography variant="subtitle1" component="h2">
                    Time left to complete your registration
                  </Typography>
                </Stack>
                {countdown ? (
                  <>
                    <Typography variant="body2" sx={{ opacity: 0.85, mb: 2.5 }}>
                      {expired || countdown.expired
                        ? 'Your 7-day registration window has ended.'
                        : `Complete payment by ${formatDeadline(countdown.deadline)}.`}
                    </Typography>
                    <Stack direction="row" spacing={2} data-testid="registration-countdown">
                      <CountdownTile value={expired ? 0 : countdown.daysLeft} label={countdown.daysLeft === 1 ? 'Day' : 'Days'} testId="countdown-days" />
                      <CountdownTile value={expired ? 0 : countdown.hoursLeft} label={countdown.hoursLeft === 1 ? 'Hour' : 'Hours'} testId="countdown-hours" />
                      <CountdownTile value={expired ? 0 : countdown.minutesLeft} label={countdown.minutesLeft === 1 ? 'Minute' : 'Minutes'} testId="countdown-minutes" />
                    </Stack>
                  </>
                ) : (
                  <Typography variant="body2" sx={{ opacity: 0.85 }}>
                    Complete your registration within 7 days of signing up.
                  </Typography>
                )}
              </CardContent>
            </Card>
          </Grid>

          <Grid size={{ xs: 12, md: 5 }}>
            <Card sx={{ height: '100%' }}>
              <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
                  <Inventory fontSize="small" color="primary" />
                  <Typography variant="subtitle1" component="h2">
                    Your registration package
                  </Typography>
                </Stack>
                {pkg.isPending ? (
                  <>
                    <Skeleton width="50%" height={36} />
                    <Skeleton width="70%" height={28} />
                  </>
                ) : pkg.data ? (
                  <>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
                      <Typography variant="h5" component="p" data-testid="package-name">
                        {pkg.data.name}
                      </Typography>
                      <Chip size="small" label={expired ? 'Expired' : 'Awaiting payment'} color={expired ? 'default' : 'warning'} variant="outlined" />
                    </Stack>
                    <Typography color="text.secondary" variant="body2" sx={{ mt: 2 }}>
                      Amount to pay
                    </Typography>
                    <Typography variant="h4" component="p" color="primary.dark" data-testid="package-amount" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatNaira(pkg.data.registration_value)}
                    </Typography>
                  </>
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    Your package details could not be loaded.
                  </Typography>
                )}
              </CardContent>
            </Card>
          </Grid>

          <Grid size={{ xs: 12, lg: 7 }}>
            <Card component="section" aria-labelledby="payment-options-title" data-testid="payment-options">
              <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
                <SectionTitle icon={<CreditCard color="primary" fontSize="small" />} title="Pay for your package" id="payment-options-title" />
                <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
                  Your account is activated as soon as your payment is confirmed. Pay in either of these ways:
                </Typography>
                {expired ? (
                  <Alert severity="warning">Payments are closed until an administrator reinstates your registration.</Alert>
                ) : (
                  <>
                    {countdown?.expired && (
                      <Alert severity="warning" sx={{ mb: 2.5 }}>
                        The registration window has passed. If a payment is refused, contact support to have your registration reinstated.
                      </Alert>
                    )}
                    <PaymentOptions
                      username={user.username}
                      pkg={pkg.data}
                      payments={payments.data ?? []}
                      paymentsLoading={payments.isPending}
                      onPayNow={() => void payNow()}
                      starting={starting}
                      onUploadReceipt={uploadReceipt}
                      onRefresh={refreshPayments}
                      refreshing={payments.isFetching}
                    />
                  </>
                )}
              </CardContent>
            </Card>
          </Grid>

          <Grid size={{ xs: 12, lg: 5 }}>
            <Card component="section" aria-labelledby="bank-details-title">
              <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
                <SectionTitle icon={<AccountBalance color="primary" fontSize="small" />} title="Your bank account" id="bank-details-title" />
                <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
                  The account your bonuses are withdrawn to. We check the account name with your bank.
                </Typography>
                <BankAccountSummary details={profile.data} loading={profile.isPending} />
                {!profile.isPending && <Divider sx={{ my: 2.5 }} />}
                <BankDetailsForm memberId={user.uuid} details={profile.data} loading={profile.isPending} fieldSize={{ xs: 12, sm: 6, lg: 12 }} />
              </CardContent>
            </Card>
          </Grid>
        </Grid>

        <Typography variant="body2" color="text.secondary" sx={{ mt: 4, textAlign: 'center' }}>
          Questions about your payment? Contact your upline or the support desk.{' '}
          <Link component="button" type="button" variant="body2" onClick={() => setLogoutOpen(true)} sx={{ verticalAlign: 'baseline' }}>
            Log out
          </Link>
        </Typography>
      </Container>

      <CardPaymentDialog
        payment={payment}
        verifyAfterMs={WELCOME_VERIFY_AFTER_MS}
        onClose={() => {
          setPayment(null);
          refreshPayments();
        }}
        onVerified={async () => {
          await queryClient.refetchQueries({ queryKey: queryKeys.me });
          setPayment(null);
          navigate('/user/dashboard', { replace: true });
        }}
      />
      <LogoutDialog open={logoutOpen} onClose={() => setLogoutOpen(false)} />
    </Box>
  );
}
