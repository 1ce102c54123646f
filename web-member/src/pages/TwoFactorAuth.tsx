import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { authenticateTwoFactorBody } from '@portal/services/contracts/auth';
import { authApi, USER_TYPE } from '../api/auth';
import { queryKeys } from '../api/queries';
import { AuthLayout } from '../layout/AuthLayout';
import { CodeField } from '../components/CodeField';
import { ResendLink } from '../components/ResendLink';
import { MissingEmailAlert } from '../components/MissingEmailAlert';
import { AppLink } from '../components/FormLinks';
import { completeTwoFactor } from '../auth/outcome';
import { toast } from '../lib/notify';

type Input = z.input<typeof authenticateTwoFactorBody>;

export default function TwoFactorAuthPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const email = useSearchParams()[0].get('email')?.trim() ?? '';
  const form = useForm<Input>({ resolver: zodResolver(authenticateTwoFactorBody), defaultValues: { email, code: '', user_type: USER_TYPE } });

  const send = async (announce: boolean) => {
    try {
      const res = await authApi.sendTwoFactorEmail(email);
      if (announce) toast.success(res.message || 'A new code has been sent to your e-mail');
    } catch {
      /* shown */
    }
  };

  // A code is mailed automatically when the page opens (once, also under StrictMode).
  const sentFor = useRef<string | null>(null);
  useEffect(() => {
    if (!email || sentFor.current === email) return;
    sentFor.current = email;
    void send(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [email]);

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      const res = await authApi.authenticateTwoFactor({ code: code.trim(), email });
      queryClient.removeQueries({ queryKey: ['auth'] });
      // The sign-in answer is the user: the member area starts from it instead of asking again.
      if (res.data.access_token) queryClient.setQueryData(queryKeys.me, { ...res.data, access_token: undefined });
      navigate(completeTwoFactor(res.data), { replace: true });
    } catch {
      /* shown */
    }
  });

  return (
    <AuthLayout
      title="Two-factor authentication"
      subtitle={
        email ? (
          <>
            We sent a verification code to <b>{email}</b>. Enter it to finish signing in.
          </>
        ) : undefined
      }
    >
      {!email ? (
        <MissingEmailAlert />
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} aria-label="Two-factor authentication">
          <Stack spacing={2.5}>
            <CodeField autoFocus {...form.register('code')} error={!!form.formState.errors.code} helperText={form.formState.errors.code?.message} />
            <Button type="submit" variant="contained" size="large" disabled={form.formState.isSubmitting}>
              Authenticate
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 3, textAlign: 'center' }}>
            Didn’t get the code? <ResendLink onResend={() => send(true)} />
          </Typography>
        </Box>
      )}
      <Typography variant="body2" sx={{ mt: 2, textAlign: 'center' }}>
        <AppLink to="/login">Back to login</AppLink>
      </Typography>
    </AuthLayout>
  );
}
