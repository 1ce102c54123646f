import { useState } from 'react';
import { Alert, Box, FormControlLabel, Skeleton, Switch, Typography } from '@mui/material';
import { useGetIdentity, useTranslate } from 'react-admin';
import { api } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';
import type { AdminIdentity } from '../authProvider';

/** PUT /api/auth/toggle-admin-2fa with the inverted state, then reload the identity (seed 000 §4). */
export const TwoFactorTab = () => {
  const translate = useTranslate();
  const { identity, isPending, refetch } = useGetIdentity();
  const admin = identity as AdminIdentity | undefined;
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [saving, setSaving] = useState(false);

  if (isPending || !admin) return <Skeleton variant="rounded" height={96} />;

  const toggle = async () => {
    setSaving(true);
    try {
      const { message } = await api.put('/auth/toggle-admin-2fa', { enable_2fa: !admin.enable_2fa });
      notifySuccess(message);
      await refetch();
    } catch (error) {
      await notifyError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 560 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('pos.security.two_factor.description')}
      </Typography>
      <Alert severity={admin.enable_2fa ? 'success' : 'info'} sx={{ mb: 2 }}>
        {translate(admin.enable_2fa ? 'pos.security.two_factor.status_on' : 'pos.security.two_factor.status_off')}
      </Alert>
      <FormControlLabel
        control={<Switch checked={admin.enable_2fa} onChange={() => void toggle()} disabled={saving} />}
        label={translate('pos.security.two_factor.switch_label')}
      />
    </Box>
  );
};
