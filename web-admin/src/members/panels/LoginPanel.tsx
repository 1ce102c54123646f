import { useState } from 'react';
import { Alert, Box, FormControlLabel, Switch, Typography } from '@mui/material';
import { PasswordInput, SaveButton, SimpleForm, Toolbar, minLength, required, useTranslate } from 'react-admin';
import { PASSWORD_MIN_LENGTH } from '@portal/services/contracts/auth';
import { ActiveOnly, Line, Section, useCanWrite, useMember, useMemberCommand } from '../common';

const validatePassword = [required(), minLength(PASSWORD_MIN_LENGTH)];

/**
 * Seed 001 §2.11 items 5–6: the member's login details with a new password (PUT
 * /api/auth/{id}/change-user-password) and the 'Login 2Factor Authentication' switch (PUT
 * /api/users/{id}/toggle-2fa, sent at once on change).
 */
const Login = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const canWrite = useCanWrite();
  const password = useMemberCommand();
  const twoFactor = useMemberCommand();
  const [formKey, setFormKey] = useState(0);
  const save = (values: Record<string, unknown>) =>
    password
      .mutateAsync({ method: 'PUT', path: `/auth/${member.id}/change-user-password`, body: { password: values.password } })
      .then(() => setFormKey((k) => k + 1))
      .catch(() => undefined);
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, alignItems: 'start' }}>
      <Section title="pos.members.login.password" testId="login-password">
        <Line label="pos.members.login.full_name" value={member.full_name} />
        <Line label="pos.members.login.username" value={`@${member.username}`} />
        <Line label="pos.members.login.password" value="••••••••" />
        {canWrite ? (
          <SimpleForm
            key={formKey}
            record={{ id: member.id, password: '' }}
            onSubmit={save}
            sx={{ p: 0, mt: 2 }}
            toolbar={
              <Toolbar sx={{ px: 0 }}>
                <SaveButton label="pos.members.login.submit" />
              </Toolbar>
            }
          >
            <PasswordInput source="password" label="pos.members.login.new_password" validate={validatePassword} autoComplete="new-password" fullWidth />
          </SimpleForm>
        ) : null}
      </Section>
      <Section title="pos.members.login.two_factor" testId="login-two-factor">
        <Alert severity={member.enable_2fa ? 'success' : 'info'} sx={{ mb: 2 }}>
          {translate(member.enable_2fa ? 'pos.members.login.two_factor_on' : 'pos.members.login.two_factor_off')}
        </Alert>
        <FormControlLabel
          control={
            <Switch
              checked={member.enable_2fa}
              disabled={!canWrite || twoFactor.isPending}
              onChange={(event) => twoFactor.mutate({ method: 'PUT', path: `/users/${member.id}/toggle-2fa`, body: { enable_2fa: event.target.checked } })}
            />
          }
          label={<Typography variant="body2">{translate('pos.members.login.two_factor')}</Typography>}
          data-testid="two-factor-switch"
        />
      </Section>
    </Box>
  );
};

export const LoginPanel = () => (
  <ActiveOnly>
    <Login />
  </ActiveOnly>
);
