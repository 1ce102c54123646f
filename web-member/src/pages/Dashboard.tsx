import { format, isValid, parseISO } from 'date-fns';
import { Box, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import Grid from '@mui/material/Grid';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Inventory from '@mui/icons-material/Inventory2Outlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import { useMember } from '../auth/member-context';
import { usePackage } from '../api/queries';
import { formatNaira } from '../lib/money';

function greeting(now = new Date()): string {
  const h = now.getHours();
  if (h < 12) return 'Good morning';
  if (h < 17) return 'Good afternoon';
  return 'Good evening';
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ py: 1.25, display: 'flex', justifyContent: 'space-between', gap: 2, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600, textAlign: 'right', wordBreak: 'break-word' }}>
        {value}
      </Typography>
    </Box>
  );
}

export default function DashboardPage() {
  const user = useMember();
  const pkg = usePackage(user.package_id);
  const created = parseISO(user.created_at);

  return (
    <>
      <Box sx={{ mb: { xs: 2.5, sm: 3.5 } }}>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.45rem', sm: '1.75rem' } }}>
          {greeting()}, {user.first_name}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Here is an overview of your membership.
        </Typography>
      </Box>

      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6, xl: 5 }}>
          <Card
            data-testid="package-card"
            sx={{
              height: '100%',
              color: '#fff',
              border: 'none',
              background: 'radial-gradient(circle at 100% 0%, rgba(159,224,184,0.25), transparent 50%), linear-gradient(145deg, #2f8a57 0%, #174a30 100%)',
            }}
          >
            <CardContent sx={{ p: { xs: 2.5, sm: 3 }, height: '100%', display: 'flex', flexDirection: 'column' }}>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 3 }}>
                <Box sx={{ width: 44, height: 44, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: 'rgba(255,255,255,0.15)' }}>
                  <Inventory />
                </Box>
                <Chip
                  icon={<VerifiedOutlined sx={{ color: 'inherit !important' }} />}
                  label="Activated"
                  size="small"
                  sx={{ bgcolor: 'rgba(255,255,255,0.92)', color: 'primary.dark' }}
                />
              </Stack>
              <Typography variant="overline" sx={{ opacity: 0.8, lineHeight: 1.6 }}>
                Registration package
              </Typography>
              {pkg.isPending ? (
                <>
                  <Skeleton sx={{ bgcolor: 'rgba(255,255,255,0.2)' }} width="45%" height={40} />
                  <Skeleton sx={{ bgcolor: 'rgba(255,255,255,0.2)' }} width="35%" height={28} />
                </>
              ) : pkg.data ? (
                <>
                  <Typography variant="h4" component="p" data-testid="package-name" sx={{ fontSize: { xs: '1.6rem', sm: '1.9rem' } }}>
                    {pkg.data.name}
                  </Typography>
                  <Typography data-testid="package-value" sx={{ mt: 0.5, opacity: 0.9, fontSize: '1.1rem', fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
                    {formatNaira(pkg.data.registration_value)}
                  </Typography>
                  <Stack direction="row" spacing={4} sx={{ mt: 'auto', pt: 3 }}>
                    <Box>
                      <Typography variant="caption" sx={{ opacity: 0.75 }}>
                        Point value
                      </Typography>
                      <Typography sx={{ fontWeight: 650 }}>{pkg.data.point_value} PV</Typography>
                    </Box>
                    <Box>
                      <Typography variant="caption" sx={{ opacity: 0.75 }}>
                        Product pick-up allowance
                      </Typography>
                      <Typography sx={{ fontWeight: 650, fontVariantNumeric: 'tabular-nums' }}>{formatNaira(pkg.data.pickup_amount)}</Typography>
                    </Box>
                  </Stack>
                </>
              ) : (
                <Typography sx={{ opacity: 0.85 }}>Package details could not be loaded.</Typography>
              )}
            </CardContent>
          </Card>
        </Grid>

        <Grid size={{ xs: 12, md: 6, xl: 4 }}>
          <Card sx={{ height: '100%' }}>
            <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                <PersonOutline color="primary" fontSize="small" />
                <Typography variant="subtitle1" component="h2">
                  Your account
                </Typography>
              </Stack>
              <Detail label="Username" value={user.username} />
              <Detail label="Email" value={user.email} />
              {user.phone && <Detail label="Phone" value={user.phone} />}
              {isValid(created) && <Detail label="Member since" value={format(created, 'd MMMM yyyy')} />}
              <Detail label="Two-factor authentication" value={user.enable_2fa ? 'On' : 'Off'} />
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </>
  );
}
