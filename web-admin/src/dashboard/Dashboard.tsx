import { Link as RouterLink } from 'react-router-dom';
import { Avatar, Box, Button, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import InsightsIcon from '@mui/icons-material/InsightsOutlined';
import SecurityIcon from '@mui/icons-material/Security';
import { Title, useBasename, useGetIdentity, useTranslate } from 'react-admin';
import type { AdminIdentity } from '../authProvider';

/**
 * An honest dashboard: who is signed in and in which role. The seed's figures (001 §2.7) come with the
 * reporting endpoints; until then nothing is invented.
 */
export const Dashboard = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const { identity, isPending } = useGetIdentity();
  const admin = identity as AdminIdentity | undefined;

  return (
    <Box sx={{ mt: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
      <Title title="pos.dashboard.title" />
      <Card>
        <CardContent sx={{ p: 3 }}>
          {isPending || !admin ? (
            <>
              <Skeleton variant="text" width="50%" height={40} />
              <Skeleton variant="text" width="35%" />
            </>
          ) : (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Avatar sx={{ bgcolor: 'primary.main', width: 56, height: 56, fontSize: 24 }}>
                {admin.name.trim().charAt(0).toUpperCase()}
              </Avatar>
              <Box>
                <Typography variant="h5" component="h2">
                  {translate('pos.dashboard.welcome', { name: admin.name })}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {translate('pos.dashboard.signed_in_as', { email: admin.email })}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap' }}>
                  <Chip
                    size="small"
                    color="primary"
                    label={`${translate('pos.dashboard.role')}: ${translate(`pos.role.${admin.role}`)}`}
                  />
                  <Chip
                    size="small"
                    variant="outlined"
                    color={admin.enable_2fa ? 'success' : 'default'}
                    label={`${translate('pos.dashboard.two_factor')}: ${translate(
                      admin.enable_2fa ? 'pos.dashboard.on' : 'pos.dashboard.off',
                    )}`}
                  />
                </Stack>
              </Box>
            </Stack>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent sx={{ p: 3, height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'flex-start' }}>
          <SecurityIcon color="primary" />
          <Typography variant="h6" component="h2" sx={{ mt: 1 }}>
            {translate('pos.security.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('pos.security.two_factor.description')}
          </Typography>
          <Button component={RouterLink} to={`${basename}/security`} variant="outlined" sx={{ mt: 'auto' }}>
            {translate('pos.dashboard.manage_security')}
          </Button>
        </CardContent>
      </Card>
      <Card sx={{ gridColumn: { md: '1 / -1' } }}>
        <CardContent sx={{ p: 3, display: 'flex', gap: 2, alignItems: 'flex-start' }}>
          <InsightsIcon color="disabled" fontSize="large" />
          <Box>
            <Typography variant="h6" component="h2">
              {translate('pos.dashboard.reports_title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate('pos.dashboard.reports_empty')}
            </Typography>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
};
