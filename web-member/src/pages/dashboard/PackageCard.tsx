import { Box, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Inventory from '@mui/icons-material/Inventory2Outlined';
import { useMember } from '../../auth/member-context';
import { usePackage } from '../../api/queries';
import { formatNaira } from '../../lib/money';

// ── Registration package ─────────────────────────────────────────────────────────────────

export function PackageCard() {
  const user = useMember();
  const pkg = usePackage(user.package_id);
  return (
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
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 2.5 }}>
          <Box sx={{ width: 44, height: 44, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: 'rgba(255,255,255,0.15)' }}>
            <Inventory />
          </Box>
          <Chip
            icon={<VerifiedOutlined sx={{ color: 'inherit !important' }} />}
            label="Activated"
            size="small"
            data-testid="package-status"
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
            <Stack direction="row" spacing={4} sx={{ mt: 'auto', pt: 2.5 }}>
              <Box>
                <Typography variant="caption" sx={{ opacity: 0.75 }}>
                  Point value
                </Typography>
                <Typography sx={{ fontWeight: 650 }}>{pkg.data.point_value} PV</Typography>
              </Box>
              <Box>
                <Typography variant="caption" sx={{ opacity: 0.75 }}>
                  Pick-up allowance
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
  );
}
