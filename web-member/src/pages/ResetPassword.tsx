import { useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Box, Button, Stack, Typography } from '@mui/material';
import { resetPasswordBody } from '@portal/services/contracts/auth';
import { authApi, USER_TYPE } from '../api/auth';
import { AuthLayout } from '../layout/AuthLayout';
import { CodeField } from '../components/CodeField';
import { PasswordField } from '../components/PasswordField';
import { ResendLink } from '../components/ResendLink';
import { MissingEmailAlert } from '../components/MissingEmailAlert';
import { AppLink } from '../components/FormLinks';
import { toastOnSuccess } from '../lib/notify';

type Input = z.input<typeof resetPasswordBody>;

export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const email = useSearchParams()[0].get('email')?.trim() ?? '';
  const form = useForm<Input>({
    resolver: zodResolver(resetPasswordBody),
    defaultValues: { email, code: '', password: '', user_type: USER_TYPE },
  });
  const err = form.formState.errors;

  const onSubmit = form.handleSubmit(async ({ code, password }) => {
    if (await toastOnSuccess(() => authApi.resetPassword({ code: code.trim(), password, email }), 'Password has been reset successfully please login to continue')) {
      navigate('/login');
    }
  });

  const resend = async () => {
    await toastOnSuccess(() => authApi.resetPasswordLink(email), 'Reset password code has been sent to your email address');
  };

  return (
    <AuthLayout
      title="Reset your password"
      subtitle={
        email ? (
          <>
            Enter the code sent to <b>{email}</b> and choose a new password.
          </>
        ) : undefined
      }
    >
      {!email ? (
        <MissingEmailAlert />
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} aria-label="Reset password">
          <Stack spacing={2.5}>
            <CodeField autoFocus {...form.register('code')} error={!!err.code} helperText={err.code?.message} />
            <PasswordField
              label="New password"
              autoComplete="new-password"
              {...form.register('password')}
              error={!!err.password}
              helperText={err.password?.message ?? 'At least 8 characters.'}
            />
            <Button type="submit" variant="contained" size="large" disabled={form.formState.isSubmitting}>
              Reset password
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 3, textAlign: 'center' }}>
            Didn’t get the code? <ResendLink onResend={resend} />
          </Typography>
        </Box>
      )}
      <Typography variant="body2" sx={{ mt: 2, textAlign: 'center' }}>
        Remembered it? <AppLink to="/login">Back to login</AppLink>
      </Typography>
    </AuthLayout>
  );
}
