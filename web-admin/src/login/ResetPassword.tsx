import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Link } from '@mui/material';
import { Form, PasswordInput, TextInput, useTranslate } from 'react-admin';
import { ADMIN_USER_TYPE } from '../authProvider';
import { api } from '../api/client';
import { LOGIN_PATH } from '../api/token';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';
import { AuthLayout } from './AuthLayout';
import { BackToLogin, MissingEmail, useEmailFromQuery } from './EmailFromQuery';
import { SubmitButton } from './SubmitButton';
import { passwordField, textField, validateCode, validateNewPassword, type FormValues } from './validators';
import { codeDigits } from '@portal/web-shared/lib/digits';

/**
 * /admin-reset-password?email=: code + new password → POST /api/auth/reset-password → /admin-login.
 * "Resend code" → POST /api/auth/reset-password-link again.
 */
export const ResetPassword = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const email = useEmailFromQuery();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [loading, setLoading] = useState(false);
  const [resending, setResending] = useState(false);

  const onSubmit = async (values: FormValues) => {
    if (!email) return;
    setLoading(true);
    try {
      const { message } = await api.post('/auth/reset-password', {
        code: textField(values, 'code'),
        password: passwordField(values, 'password'),
        email,
        user_type: ADMIN_USER_TYPE,
      });
      notifySuccess(message);
      navigate(LOGIN_PATH, { replace: true });
    } catch (error) {
      await notifyError(error);
    } finally {
      setLoading(false);
    }
  };

  const resend = async () => {
    if (!email) return;
    setResending(true);
    try {
      const { message } = await api.post('/auth/reset-password-link', { email, user_type: ADMIN_USER_TYPE });
      notifySuccess(message);
    } catch (error) {
      await notifyError(error);
    } finally {
      setResending(false);
    }
  };

  return (
    <AuthLayout title={translate('pos.reset.title')} subtitle={email ? translate('pos.reset.intro', { email }) : undefined}>
      {email ? (
        <>
          <Form onSubmit={onSubmit} noValidate>
            <TextInput
              source="code"
              label="pos.auth.code"
              helperText="pos.auth.code_helper"
              autoComplete="one-time-code"
              autoFocus
              validate={validateCode}
              parse={codeDigits}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              fullWidth
            />
            <PasswordInput
              source="password"
              label="pos.auth.new_password"
              autoComplete="new-password"
              validate={validateNewPassword}
              fullWidth
            />
            <SubmitButton label="pos.reset.submit" loading={loading} />
          </Form>
          <Box sx={{ textAlign: 'center', mt: 2 }}>
            <Link component="button" type="button" variant="body2" disabled={resending} onClick={() => void resend()}>
              {translate('pos.reset.resend')}
            </Link>
          </Box>
          <BackToLogin />
        </>
      ) : (
        <MissingEmail />
      )}
    </AuthLayout>
  );
};
