import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Box, Collapse, Divider, Link, Typography } from '@mui/material';
import { Form, PasswordInput, TextInput, useTranslate } from 'react-admin';
import { signIn, ADMIN_USER_TYPE } from '../authProvider';
import { api } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';
import { AuthLayout } from './AuthLayout';
import { SubmitButton } from './SubmitButton';
import { passwordField, textField, validateEmail, validateRequired, type FormValues } from './validators';

/**
 * /admin-login: e-mail + password → POST /api/auth/admin-login. With 2FA on (and no token returned) the
 * admin continues on /admin-two-factor-auth, otherwise the token is stored and the back office opens.
 * The forgot-password block → POST /api/auth/reset-password-link → /admin-reset-password.
 */
export const AdminLogin = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [loading, setLoading] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [sendingReset, setSendingReset] = useState(false);

  const onLogin = async (values: FormValues) => {
    setLoading(true);
    try {
      const outcome = await signIn({ email: textField(values, 'email'), password: passwordField(values, 'password') });
      if (outcome.kind === 'two-factor') {
        navigate(`/admin-two-factor-auth?email=${encodeURIComponent(outcome.email)}`);
      } else {
        navigate('/admin', { replace: true });
      }
    } catch (error) {
      await notifyError(error);
    } finally {
      setLoading(false);
    }
  };

  const onForgot = async (values: FormValues) => {
    const email = textField(values, 'reset_email');
    setSendingReset(true);
    try {
      const { message } = await api.post('/auth/reset-password-link', { email, user_type: ADMIN_USER_TYPE });
      notifySuccess(message);
      navigate(`/admin-reset-password?email=${encodeURIComponent(email)}`);
    } catch (error) {
      await notifyError(error);
    } finally {
      setSendingReset(false);
    }
  };

  return (
    <AuthLayout title={translate('pos.login.title')} subtitle={translate('pos.login.subtitle')}>
      {params.get('reason') === 'idle' && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('pos.login.idle')}
        </Alert>
      )}
      <Form onSubmit={onLogin} noValidate>
        <TextInput
          source="email"
          type="email"
          label="pos.auth.email"
          autoComplete="username"
          autoFocus
          validate={validateEmail}
          fullWidth
        />
        <PasswordInput
          source="password"
          label="pos.auth.password"
          autoComplete="current-password"
          validate={validateRequired}
          fullWidth
        />
        <SubmitButton label="pos.login.submit" loading={loading} />
      </Form>

      <Box sx={{ textAlign: 'center', mt: 2 }}>
        <Link component="button" type="button" variant="body2" onClick={() => setForgotOpen((open) => !open)}>
          {translate('pos.login.forgot')}
        </Link>
      </Box>
      <Collapse in={forgotOpen} unmountOnExit>
        <Divider sx={{ my: 2 }} />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {translate('pos.login.forgot_hint')}
        </Typography>
        <Form onSubmit={onForgot} noValidate>
          <TextInput
            source="reset_email"
            type="email"
            label="pos.auth.email"
            autoComplete="email"
            validate={validateEmail}
            fullWidth
          />
          <SubmitButton label="pos.login.send_reset" loading={sendingReset} />
        </Form>
      </Collapse>
    </AuthLayout>
  );
};
