import { Link as RouterLink } from 'react-router-dom';
import { Avatar, Box, Button, Card, Chip, Skeleton, Stack, Typography } from '@mui/material';
import SecurityIcon from '@mui/icons-material/Security';
import { useBasename, useGetIdentity, useTranslate } from 'react-admin';
import type { AdminIdentity } from '../authProvider';

/** A compact card: who is signed in, in which role, whether two-factor is on, and the way to change it. */
export const Welcome = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const { identity, isPending } = useGetIdentity();
  const admin = identity as AdminIdentity | undefined;

  return (
    <Card sx={{ px: 2, py: 1.5 }}>
      {isPending || !admin ? (
        <Skeleton variant="text" width="45%" height={40} />
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flex: 1, minWidth: 0 }}>
            <Avatar sx={{ bgcolor: 'primary.main', width: 40, height: 40 }}>{admin.name.trim().charAt(0).toUpperCase()}</Avatar>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
                {translate('pos.dashboard.welcome', { name: admin.name })}
              </Typography>
              <Typography variant="body2" color="text.secondary" noWrap>
                {translate('pos.dashboard.signed_in_as', { email: admin.email })}
              </Typography>
            </Box>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
            <Chip size="small" color="primary" label={`${translate('pos.dashboard.role')}: ${translate(`pos.role.${admin.role}`)}`} />
            <Chip
              size="small"
              variant="outlined"
              color={admin.enable_2fa ? 'success' : 'default'}
              label={`${translate('pos.dashboard.two_factor')}: ${translate(admin.enable_2fa ? 'pos.dashboard.on' : 'pos.dashboard.off')}`}
            />
            <Button component={RouterLink} to={`${basename}/security`} size="small" startIcon={<SecurityIcon />}>
              {translate('pos.dashboard.manage_security')}
            </Button>
          </Stack>
        </Stack>
      )}
    </Card>
  );
};
