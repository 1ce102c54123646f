import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { format } from 'date-fns';
import { Alert, Box, Button, Card, CardContent, Chip, Container, Skeleton, Stack, Typography } from '@mui/material';
import Grid from '@mui/material/Grid';
import LogoutIcon from '@mui/icons-material/Logout';
import HourglassTop from '@mui/icons-material/HourglassTopOutlined';
import Inventory from '@mui/icons-material/Inventory2Outlined';
import CreditCard from '@mui/icons-material/CreditCardOutlined';
import Receipt from '@mui/icons-material/ReceiptLongOutlined';
import { useMember } from '../auth/member-context';
import { homeFor } from '../auth/outcome';
import { usePackage } from '../api/queries';
import { Logo } from '../components/Logo';
import { LogoutDialog } from '../layout/LogoutDialog';
import { formatNaira } from '../lib/money';
import { registrationCountdown } from '../lib/registration-window';

function useNow(intervalMs = 60_000): Date {
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

export default function WelcomePage() {
  const user = useMember();
  const now = useNow();
  const [logoutOpen, setLogoutOpen] = useState(false);
  const pkg = usePackage(user.reg_package_id || user.package_id);

  if (user.payment === 'approved') return <Navigate to={homeFor(user)} replace />;

  const countdown = registrationCountdown(user.created_at, now);

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        <Container maxWidth="lg" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', py: 1.5 }}>
          <Logo size={32} />
          <Button variant="outlined" color="inherit" startIcon={<LogoutIcon />} onClick={() => setLogoutOpen(true)} sx={{ borderColor: 'divider' }}>
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

        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 7 }}>
            <Card
              sx={{
                height: '100%',
                color: '#fff',
                border: 'none',
                background: 'radial-gradient(circle at 90% 0%, rgba(159,224,184,0.22), transparent 50%), linear-gradient(150deg, #237146 0%, #113824 100%)',
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
                      {countdown.expired
                        ? 'Your 7-day registration window has ended.'
                        : `Complete payment by ${format(countdown.deadline, "EEEE d MMMM yyyy, h:mm a")}.`}
                    </Typography>
                    <Stack direction="row" spacing={2} data-testid="registration-countdown">
                      <CountdownTile value={countdown.daysLeft} label={countdown.daysLeft === 1 ? 'Day' : 'Days'} testId="countdown-days" />
                      <CountdownTile value={countdown.hoursLeft} label={countdown.hoursLeft === 1 ? 'Hour' : 'Hours'} testId="countdown-hours" />
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
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Typography variant="h5" component="p" data-testid="package-name">
                        {pkg.data.name}
                      </Typography>
                      <Chip size="small" label="Awaiting payment" color="warning" variant="outlined" />
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

          <Grid size={12}>
            <Card component="section" aria-labelledby="payment-options-title" data-testid="payment-options">
              <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
                <Typography id="payment-options-title" variant="h6" component="h2">
                  Payment options
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 2.5 }}>
                  Your account is activated as soon as your payment is confirmed. You can pay in either of these ways:
                </Typography>
                <Grid container spacing={2}>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <Stack direction="row" spacing={1.5} sx={{ p: 2, borderRadius: 2, border: 1, borderColor: 'divider', height: '100%' }}>
                      <CreditCard color="primary" />
                      <Box>
                        <Typography variant="subtitle2">Card payment</Typography>
                        <Typography variant="body2" color="text.secondary">
                          Pay online with your debit card. Your account is activated once the payment is verified.
                        </Typography>
                      </Box>
                    </Stack>
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <Stack direction="row" spacing={1.5} sx={{ p: 2, borderRadius: 2, border: 1, borderColor: 'divider', height: '100%' }}>
                      <Receipt color="primary" />
                      <Box>
                        <Typography variant="subtitle2">Bank transfer</Typography>
                        <Typography variant="body2" color="text.secondary">
                          Transfer to the company account and upload your proof-of-payment receipt (image up to 500 kB) for approval.
                        </Typography>
                      </Box>
                    </Stack>
                  </Grid>
                </Grid>
                {countdown?.expired && (
                  <Alert severity="warning" sx={{ mt: 2.5 }}>
                    The registration window has passed. Contact support if you still wish to activate this account.
                  </Alert>
                )}
              </CardContent>
            </Card>
          </Grid>
        </Grid>
      </Container>

      <LogoutDialog open={logoutOpen} onClose={() => setLogoutOpen(false)} />
    </Box>
  );
}
