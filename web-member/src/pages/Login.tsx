import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Box, Button, Collapse, Divider, Link, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { emailBody, loginBody } from '@portal/services/contracts/auth';
import { authApi } from '../api/auth';
import { queryKeys } from '../api/queries';
import { AuthLayout } from '../layout/AuthLayout';
import { PasswordField } from '../components/PasswordField';
import { AppLink } from '../components/FormLinks';
import { completeLogin } from '../auth/outcome';
import { takeFlashMessage } from '../auth/session';
import { storeUser } from '../auth/token';
import { toast } from '../lib/notify';

type LoginInput = z.input<typeof loginBody>;
type EmailInput = z.input<typeof emailBody>;

export default function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [forgotOpen, setForgotOpen] = useState(false);

  useEffect(() => {
    const flash = takeFlashMessage();
    if (flash) toast.info(flash);
  }, []);

  const login = useForm<LoginInput>({ resolver: zodResolver(loginBody), defaultValues: { username: '', password: '' } });
  const forgot = useForm<EmailInput>({ resolver: zodResolver(emailBody), defaultValues: { email: '' } });

  const onLogin = login.handleSubmit(async (values) => {
    try {
      const res = await authApi.login({ username: values.username.trim(), password: values.password });
      queryClient.removeQueries({ queryKey: ['auth'] });
      // The sign-in answer is the user: the member area starts from it instead of asking again.
      if (res.data.access_token) {
        const user = { ...res.data, access_token: undefined };
        queryClient.setQueryData(queryKeys.me, user);
        storeUser(user);
      }
      const next = completeLogin(res.data);
      if (res.message) (res.data.access_token ? toast.success : toast.info)(res.message);
      navigate(next);
    } catch {
      /* the client has shown the error */
    }
  });

  const onForgot = forgot.handleSubmit(async ({ email }) => {
    try {
      const res = await authApi.resetPasswordLink(email.trim());
      toast.success(res.message || 'Reset password code has been sent to your email address');
      navigate(`/reset-password?email=${encodeURIComponent(email.trim())}`);
    } catch {
      /* shown */
    }
  });

  return (
    <AuthLayout title="Welcome back" subtitle="Sign in to your member account.">
      <Box component="form" noValidate onSubmit={onLogin} aria-label="Login">
        <Stack spacing={2.25}>
          <TextField
            label="Username"
            autoComplete="username"
            autoFocus
            {...login.register('username')}
            error={!!login.formState.errors.username}
            helperText={login.formState.errors.username?.message}
          />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            {...login.register('password')}
            error={!!login.formState.errors.password}
            helperText={login.formState.errors.password?.message}
          />
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: '8px !important' }}>
            <Link
              component="button"
              type="button"
              variant="body2"
              aria-expanded={forgotOpen}
              aria-controls="forgot-password"
              onClick={() => setForgotOpen((o) => !o)}
            >
              Forgot your password?
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={login.formState.isSubmitting}>
            {login.formState.isSubmitting ? 'Signing in…' : 'Login'}
          </Button>
        </Stack>
      </Box>

      <Collapse in={forgotOpen} id="forgot-password" unmountOnExit>
        <Box
          component="form"
          noValidate
          onSubmit={onForgot}
          aria-label="Forgot password"
          sx={{ mt: 3, p: 2.25, borderRadius: 2, border: 1, borderColor: 'divider', bgcolor: '#f4faf6' }}
        >
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            Reset your password
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Enter the e-mail address on your account and we will send you a reset code.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label="Email"
              type="email"
              size="small"
              autoComplete="email"
              {...forgot.register('email')}
              error={!!forgot.formState.errors.email}
              helperText={forgot.formState.errors.email?.message}
            />
            <Button type="submit" variant="outlined" disabled={forgot.formState.isSubmitting} sx={{ flexShrink: 0, height: 40 }}>
              Send reset code
            </Button>
          </Stack>
        </Box>
      </Collapse>

      <Divider sx={{ my: 3 }} />
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
        New here? <AppLink to="/register">Create an account</AppLink>
      </Typography>
    </AuthLayout>
  );
}
