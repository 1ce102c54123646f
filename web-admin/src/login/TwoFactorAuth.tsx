import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, CircularProgress, Link, Typography } from '@mui/material';
import { Form, TextInput, useTranslate } from 'react-admin';
import { ADMIN_USER_TYPE, completeTwoFactor } from '../authProvider';
import { api } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';
import { AuthLayout } from './AuthLayout';
import { BackToLogin, MissingEmail, useEmailFromQuery } from './EmailFromQuery';
import { SubmitButton } from './SubmitButton';
import { textField, validateCode, type FormValues } from './validators';
import { codeDigits } from '@portal/web-shared/lib/digits';

/**
 * /admin-two-factor-auth?email=: on opening, POST /api/auth/send-2fa-verification-email mails a code;
 * Authenticate → POST /api/auth/authenticate-2fa → token stored → /admin.
 */
export const TwoFactorAuth = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const email = useEmailFromQuery();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [sending, setSending] = useState(false);
  const [loading, setLoading] = useState(false);
  const sentFor = useRef<string | null>(null);

  const sendCode = useCallback(async () => {
    if (!email) return;
    setSending(true);
    try {
      const { message } = await api.post('/auth/send-2fa-verification-email', { email, user_type: ADMIN_USER_TYPE });
      notifySuccess(message);
    } catch (error) {
      await notifyError(error);
    } finally {
      setSending(false);
    }
  }, [email, notifyError, notifySuccess]);

  // Mail the code once per e-mail (StrictMode runs effects twice in development).
  useEffect(() => {
    if (email && sentFor.current !== email) {
      sentFor.current = email;
      void sendCode();
    }
  }, [email, sendCode]);

  const onSubmit = async (values: FormValues) => {
    if (!email) return;
    setLoading(true);
    try {
      await completeTwoFactor({ email, code: textField(values, 'code') });
      navigate('/admin', { replace: true });
    } catch (error) {
      await notifyError(error);
    } finally {
      setLoading(false);
    }
  };

  return (
    <AuthLayout
      title={translate('pos.two_factor.title')}
      subtitle={email ? translate('pos.two_factor.intro', { email }) : undefined}
    >
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
            <SubmitButton label="pos.two_factor.submit" loading={loading} />
          </Form>
          <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1, mt: 2 }}>
            {sending ? (
              <>
                <CircularProgress size={14} />
                <Typography variant="body2" color="text.secondary">
                  {translate('pos.two_factor.sending')}
                </Typography>
              </>
            ) : (
              <Link component="button" type="button" variant="body2" onClick={() => void sendCode()}>
                {translate('pos.two_factor.resend')}
              </Link>
            )}
          </Box>
          <BackToLogin />
        </>
      ) : (
        <MissingEmail />
      )}
    </AuthLayout>
  );
};
