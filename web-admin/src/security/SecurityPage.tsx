import { useState } from 'react';
import { Box, Card, CardContent, Tab, Tabs } from '@mui/material';
import { Title, useAuthenticated, useTranslate } from 'react-admin';
import { ChangePasswordTab } from './ChangePasswordTab';
import { TwoFactorTab } from './TwoFactorTab';

/** /admin/security — seed 001 §2.8: a two-factor tab and a Change Password tab. */
export const SecurityPage = () => {
  useAuthenticated();
  const translate = useTranslate();
  const [tab, setTab] = useState<'two_factor' | 'password'>('two_factor');
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="pos.security.title" />
      <Tabs value={tab} onChange={(_event, value: 'two_factor' | 'password') => setTab(value)} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="two_factor" label={translate('pos.security.tabs.two_factor')} />
        <Tab value="password" label={translate('pos.security.tabs.password')} />
      </Tabs>
      <CardContent sx={{ p: 3 }}>
        <Box role="tabpanel">{tab === 'two_factor' ? <TwoFactorTab /> : <ChangePasswordTab />}</Box>
      </CardContent>
    </Card>
  );
};
