import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, Chip, FormControlLabel, Stack, Step, StepLabel, Stepper, Switch, Tab, Tabs, TextField, Typography } from '@mui/material';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import SecurityIcon from '@mui/icons-material/SecurityOutlined';
import { authMessages } from '@portal/services/contracts/auth-messages';
import { useMember } from '../auth/member-context';
import { authApi, USER_TYPE } from '../api/auth';
import { profileApi } from '../api/profile';
import { queryKeys } from '../api/queries';
import { CodeField } from '../components/CodeField';
import { PasswordField } from '../components/PasswordField';
import { ResendLink } from '../components/ResendLink';
import { lazyResolver, loadWhenTouched } from '../lib/lazy-resolver';
import { toast, toastOnSuccess } from '../lib/notify';
import type { ChangeInput, LinkInput } from './security-forms';

/** The forms' zod schemas (./security-forms.ts) load when the member turns to a form: zod is not on its first screen. */
const linkResolver = lazyResolver<LinkInput>(async () => (await import('./security-forms')).linkResolver);
const changeResolver = lazyResolver<ChangeInput>(async () => (await import('./security-forms')).changeResolver);

function TwoFactorTab() {
  const user = useMember();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const enabled = user.enable_2fa;

  const toggle = async () => {
    setBusy(true);
    try {
      const res = await profileApi.toggleTwoFactor(user.uuid, !enabled);
      toast.success(res.message || (enabled ? authMessages.twoFactorOff : authMessages.twoFactorOn));
      // The seeds reload the profile after the toggle; the signed-in user carries the flag.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.me }),
        queryClient.invalidateQueries({ queryKey: queryKeys.profile(user.uuid) }),
      ]);
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card component="section" aria-labelledby="two-factor-title" sx={{ maxWidth: 720 }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ width: 44, height: 44, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: '#eef7f1', color: 'primary.main', flexShrink: 0 }}>
            <ShieldOutlined />
          </Box>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
              <Typography id="two-factor-title" variant="h6" component="h2">
                Two-factor authentication
              </Typography>
              <Chip size="small" label={enabled ? 'On' : 'Off'} color={enabled ? 'success' : 'default'} variant={enabled ? 'filled' : 'outlined'} data-testid="two-factor-state" />
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.75 }}>
              When it is on, signing in takes your password and a 6-digit code we e-mail to <b>{user.email}</b>. Someone who learns your password still
              cannot sign in without your mailbox.
            </Typography>
          </Box>
        </Stack>
        <Box sx={{ mt: 2.5, p: 2, borderRadius: 2, border: 1, borderColor: 'divider', bgcolor: '#fafcfb' }}>
          <FormControlLabel
            control={<Switch checked={enabled} onChange={() => void toggle()} disabled={busy} slotProps={{ input: { 'aria-label': 'Two-factor authentication' } }} />}
            label={
              <Typography sx={{ fontWeight: 600 }}>{busy ? 'Saving…' : enabled ? 'Two-factor authentication is enabled' : 'Enable two-factor authentication'}</Typography>
            }
            sx={{ m: 0, gap: 1 }}
          />
        </Box>
      </CardContent>
    </Card>
  );
}

function ChangePasswordTab() {
  const user = useMember();
  const [step, setStep] = useState<0 | 1>(0);

  const request = useForm<LinkInput>({
    resolver: linkResolver,
    defaultValues: { email: user.email, old_password: '', user_type: USER_TYPE },
  });
  const change = useForm<ChangeInput>({
    resolver: changeResolver,
    defaultValues: { email: user.email, code: '', password: '', user_type: USER_TYPE },
  });

  const sendCode = request.handleSubmit(async ({ old_password }) => {
    if (await toastOnSuccess(() => authApi.changePasswordLink({ email: user.email, old_password }), authMessages.changeCodeSent)) {
      setStep(1);
    }
  });

  // The code is tied to the current password, so a new one is asked for with it again.
  const resend = async () => {
    await toastOnSuccess(() => authApi.changePasswordLink({ email: user.email, old_password: request.getValues('old_password') }), authMessages.changeCodeSent);
  };

  const changePassword = change.handleSubmit(async ({ code, password }) => {
    if (await toastOnSuccess(() => authApi.changePassword({ code: code.trim(), password, email: user.email }), authMessages.passwordChanged)) {
      request.reset();
      change.reset();
      setStep(0);
    }
  });

  return (
    <Card component="section" aria-labelledby="change-password-title" sx={{ maxWidth: 720 }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
          <VpnKeyOutlined color="primary" fontSize="small" />
          <Typography id="change-password-title" variant="h6" component="h2">
            Change password
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          Confirm your current password and we e-mail you a code; then choose your new password.
        </Typography>
        <Stepper activeStep={step} alternativeLabel sx={{ mb: 3.5 }}>
          <Step>
            <StepLabel>Confirm it is you</StepLabel>
          </Step>
          <Step>
            <StepLabel>Set a new password</StepLabel>
          </Step>
        </Stepper>

        {step === 0 ? (
          <Box component="form" noValidate onSubmit={sendCode} aria-label="Send change password code" {...loadWhenTouched(linkResolver, changeResolver)}>
            <Stack spacing={2.25}>
              <TextField label="Email" value={user.email} slotProps={{ input: { readOnly: true } }} name="email" />
              <PasswordField
                label="Current password"
                autoComplete="current-password"
                {...request.register('old_password')}
                error={!!request.formState.errors.old_password}
                helperText={request.formState.errors.old_password?.message}
              />
              <Button type="submit" variant="contained" size="large" disabled={request.formState.isSubmitting} sx={{ alignSelf: { sm: 'flex-end' } }}>
                {request.formState.isSubmitting ? 'Sending…' : 'Send code'}
              </Button>
            </Stack>
          </Box>
        ) : (
          <Box component="form" noValidate onSubmit={changePassword} aria-label="Change password" {...loadWhenTouched(changeResolver)}>
            <Alert severity="info" sx={{ mb: 2.5 }}>
              We sent a 6-digit code to <b>{user.email}</b>.
            </Alert>
            <Stack spacing={2.25}>
              <TextField label="Email" value={user.email} slotProps={{ input: { readOnly: true } }} />
              <CodeField autoFocus {...change.register('code')} error={!!change.formState.errors.code} helperText={change.formState.errors.code?.message} />
              <PasswordField
                label="New password"
                autoComplete="new-password"
                {...change.register('password')}
                error={!!change.formState.errors.password}
                helperText={change.formState.errors.password?.message ?? 'At least 8 characters.'}
              />
              <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
                <Typography variant="body2" color="text.secondary">
                  Didn’t get the code? <ResendLink onResend={resend} />
                </Typography>
                <Stack direction="row" spacing={1.5}>
                  <Button color="inherit" onClick={() => setStep(0)} disabled={change.formState.isSubmitting}>
                    Back
                  </Button>
                  <Button type="submit" variant="contained" size="large" disabled={change.formState.isSubmitting} sx={{ flex: { xs: 1, sm: 'none' } }}>
                    {change.formState.isSubmitting ? 'Changing…' : 'Change password'}
                  </Button>
                </Stack>
              </Stack>
            </Stack>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

const TABS = [
  { key: '2fa', label: 'Enable/Disable 2FA' },
  { key: 'password', label: 'Change Password' },
] as const;

export default function SecurityPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'password' ? 'password' : '2fa';
  return (
    <>
      <Box sx={{ mb: { xs: 2, sm: 3 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <SecurityIcon color="primary" />
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.45rem', sm: '1.75rem' } }}>
            Security
          </Typography>
        </Stack>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Protect your account with two-factor authentication and change your password.
        </Typography>
      </Box>
      <Tabs
        value={tab}
        onChange={(_e, value: string) => setParams(value === '2fa' ? {} : { tab: value }, { replace: true })}
        aria-label="Security sections"
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((t) => (
          <Tab key={t.key} value={t.key} label={t.label} id={`security-tab-${t.key}`} aria-controls={`security-panel-${t.key}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`security-panel-${tab}`} aria-labelledby={`security-tab-${tab}`}>
        {tab === '2fa' ? <TwoFactorTab /> : <ChangePasswordTab />}
      </Box>
    </>
  );
}
