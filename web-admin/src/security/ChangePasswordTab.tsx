import { useState } from 'react';
import { Alert, Box, Button, Skeleton, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { Form, PasswordInput, TextInput, useGetIdentity, useTranslate } from 'react-admin';
import { api } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';
import { ADMIN_USER_TYPE, type AdminIdentity } from '../authProvider';
import { SubmitButton } from '../login/SubmitButton';
import { passwordField, textField, validateCode, validateNewPassword, validateRequired, type FormValues } from '../login/validators';
import { codeDigits } from '@portal/web-shared/lib/digits';

/**
 * Two steps (seed 000 §4): POST /api/auth/change-password-link {email, old_password, user_type}
 * mails a code; POST /api/auth/change-password {code, password, email, user_type} changes it.
 * The e-mail is read-only (seed 001 §2.8).
 */
export const ChangePasswordTab = () => {
  const translate = useTranslate();
  const { identity, isPending } = useGetIdentity();
  const admin = identity as AdminIdentity | undefined;
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [step, setStep] = useState<0 | 1>(0);
  const [loading, setLoading] = useState(false);

  if (isPending || !admin) return <Skeleton variant="rounded" height={160} />;
  const email = admin.email;

  const sendCode = async (values: FormValues) => {
    setLoading(true);
    try {
      const { message } = await api.post('/auth/change-password-link', {
        email,
        old_password: passwordField(values, 'old_password'),
        user_type: ADMIN_USER_TYPE,
      });
      notifySuccess(message);
      setStep(1);
    } catch (error) {
      await notifyError(error);
    } finally {
      setLoading(false);
    }
  };

  const change = async (values: FormValues) => {
    setLoading(true);
    try {
      const { message } = await api.post('/auth/change-password', {
        code: textField(values, 'code'),
        password: passwordField(values, 'password'),
        email,
        user_type: ADMIN_USER_TYPE,
      });
      notifySuccess(message);
      setStep(0);
    } catch (error) {
      await notifyError(error);
    } finally {
      setLoading(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 480 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('pos.security.password.description')}
      </Typography>
      <Stepper activeStep={step} sx={{ mb: 3 }}>
        <Step>
          <StepLabel>{translate('pos.security.password.step_code')}</StepLabel>
        </Step>
        <Step>
          <StepLabel>{translate('pos.security.password.step_change')}</StepLabel>
        </Step>
      </Stepper>
      {step === 0 ? (
        <Form key="send-code" defaultValues={{ email }} onSubmit={sendCode} noValidate>
          <TextInput source="email" label="pos.security.password.email" readOnly fullWidth helperText={false} />
          <PasswordInput
            source="old_password"
            label="pos.security.password.old_password"
            autoComplete="current-password"
            validate={validateRequired}
            fullWidth
          />
          <SubmitButton label="pos.security.password.send_code" loading={loading} />
        </Form>
      ) : (
        <>
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('pos.security.password.code_sent_to', { email })}
          </Alert>
          <Form key="change" defaultValues={{ email }} onSubmit={change} noValidate>
            <TextInput source="email" label="pos.security.password.email" readOnly fullWidth helperText={false} />
            <TextInput
              source="code"
              label="pos.security.password.code"
              autoComplete="one-time-code"
              validate={validateCode}
              parse={codeDigits}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              fullWidth
            />
            <PasswordInput
              source="password"
              label="pos.security.password.new_password"
              autoComplete="new-password"
              validate={validateNewPassword}
              fullWidth
            />
            <SubmitButton label="pos.security.password.submit" loading={loading} />
          </Form>
          <Button onClick={() => setStep(0)} sx={{ mt: 1 }} fullWidth>
            {translate('pos.security.password.start_over')}
          </Button>
        </>
      )}
    </Box>
  );
};
