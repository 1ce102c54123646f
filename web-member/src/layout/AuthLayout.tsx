import type { ReactNode } from 'react';
import { Box, Paper, Stack, Typography } from '@mui/material';
import Spa from '@mui/icons-material/SpaOutlined';
import Hub from '@mui/icons-material/HubOutlined';
import Payments from '@mui/icons-material/PaymentsOutlined';
import { Logo } from '../components/Logo';
import { BRAND } from '../lib/brand';

const points = [
  { icon: <Spa fontSize="small" />, text: 'Natural herbal and wellness products, made for everyday health.' },
  { icon: <Hub fontSize="small" />, text: 'Build your network and follow your downlines as they grow.' },
  { icon: <Payments fontSize="small" />, text: 'Track your bonuses and withdraw to your bank account in naira.' },
];

interface Props {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Wider card for long forms (registration). */
  wide?: boolean;
}

/** Public pages: a brand panel beside a form card; on phones only the card. */
export function AuthLayout({ title, subtitle, children, wide = false }: Props) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      <Box
        component="aside"
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          width: { md: 400, lg: 460 },
          flexShrink: 0,
          p: 5,
          color: '#fff',
          position: 'sticky',
          top: 0,
          height: '100vh',
          background:
            'radial-gradient(circle at 85% 10%, rgba(159,224,184,0.16), transparent 42%), radial-gradient(circle at 0% 100%, rgba(127,195,153,0.35), transparent 45%), linear-gradient(160deg, #1c5c3a 0%, #113824 100%)',
          overflow: 'hidden',
        }}
      >
        <Logo inverted />
        <Box>
          <Typography variant="h4" component="p" sx={{ fontSize: { md: '1.9rem', lg: '2.2rem' }, lineHeight: 1.2, mb: 1.5 }}>
            {BRAND.tagline}
          </Typography>
          <Typography sx={{ opacity: 0.82, mb: 4, maxWidth: 340 }}>
            Your member portal for registration, your network, your earnings and product pick-ups.
          </Typography>
          <Stack spacing={2.25} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {points.map((p) => (
              <Stack key={p.text} component="li" direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
                <Box
                  sx={{
                    width: 34,
                    height: 34,
                    borderRadius: 2,
                    flexShrink: 0,
                    display: 'grid',
                    placeItems: 'center',
                    bgcolor: 'rgba(255,255,255,0.12)',
                    border: '1px solid rgba(255,255,255,0.18)',
                  }}
                >
                  {p.icon}
                </Box>
                <Typography variant="body2" sx={{ opacity: 0.9, pt: 0.75 }}>
                  {p.text}
                </Typography>
              </Stack>
            ))}
          </Stack>
        </Box>
        <Typography variant="caption" sx={{ opacity: 0.6 }}>
          © {new Date().getFullYear()} {BRAND.name}
        </Typography>
      </Box>

      <Box
        component="main"
        sx={{
          flex: 1,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: { xs: 'flex-start', sm: 'center' },
          px: { xs: 2, sm: 4 },
          py: { xs: 3, sm: 6 },
        }}
      >
        <Box sx={{ width: '100%', maxWidth: wide ? 680 : 440 }}>
          <Box sx={{ display: { xs: 'flex', md: 'none' }, justifyContent: 'center', mb: 3 }}>
            <Logo />
          </Box>
          <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 }, boxShadow: '0 10px 30px rgba(17,56,36,0.06)' }}>
            <Typography variant="h5" component="h1" sx={{ mb: subtitle ? 0.75 : 3 }}>
              {title}
            </Typography>
            {subtitle && (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
                {subtitle}
              </Typography>
            )}
            {children}
          </Paper>
        </Box>
      </Box>
    </Box>
  );
}
