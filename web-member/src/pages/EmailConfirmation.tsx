import { useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Box, Button, Stack, Typography } from '@mui/material';
import { emailConfirmationBody } from '@portal/services/contracts/auth';
import { authApi } from '../api/auth';
import { AuthLayout } from '../layout/AuthLayout';
import { CodeField } from '../components/CodeField';
import { ResendLink } from '../components/ResendLink';
import { MissingEmailAlert } from '../components/MissingEmailAlert';
import { AppLink } from '../components/FormLinks';
import { toastOnSuccess } from '../lib/notify';

type Input = z.input<typeof emailConfirmationBody>;

export default function EmailConfirmationPage() {
  const navigate = useNavigate();
  const email = useSearchParams()[0].get('email')?.trim() ?? '';
  const form = useForm<Input>({ resolver: zodResolver(emailConfirmationBody), defaultValues: { email, code: '' } });

  const onSubmit = form.handleSubmit(async ({ code }) => {
    if (await toastOnSuccess(() => authApi.confirmEmail({ email, code: code.trim() }), 'Email confirmed successfully please login to continue')) {
      navigate('/login');
    }
  });

  const resend = async () => {
    await toastOnSuccess(() => authApi.resendEmailConfirmation(email), 'Email confirmation code resent successfully');
  };

  return (
    <AuthLayout
      title="Confirm your e-mail"
      subtitle={
        email ? (
          <>
            Check your mail: we sent a message to <b>{email}</b>. Enter the 6-digit code from it below to
            confirm your e-mail address. If the message says this address already has an account, sign in
            with that account instead.
          </>
        ) : undefined
      }
    >
      {!email ? (
        <MissingEmailAlert />
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} aria-label="Email confirmation">
          <Stack spacing={2.5}>
            <CodeField autoFocus {...form.register('code')} error={!!form.formState.errors.code} helperText={form.formState.errors.code?.message} />
            <Button type="submit" variant="contained" size="large" disabled={form.formState.isSubmitting}>
              Confirm e-mail
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 3, textAlign: 'center' }}>
            Didn’t get the code? <ResendLink onResend={resend} />
          </Typography>
        </Box>
      )}
      <Typography variant="body2" sx={{ mt: 2, textAlign: 'center' }}>
        <AppLink to="/login">Back to login</AppLink>
      </Typography>
    </AuthLayout>
  );
}
