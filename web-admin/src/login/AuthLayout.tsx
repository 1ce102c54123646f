import type { ReactNode } from 'react';
import { Avatar, Box, Card, CardContent, Typography } from '@mui/material';
import SpaIcon from '@mui/icons-material/Spa';
import { useTranslate } from 'react-admin';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}

/** Centered card with the company mark, shared by the three public pages. */
export const AuthLayout = ({ title, subtitle, children }: AuthLayoutProps) => {
  const translate = useTranslate();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        background: 'linear-gradient(160deg, #0b3d0f 0%, #1b5e20 45%, #2e7d32 100%)',
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 420, borderRadius: 3, boxShadow: '0 12px 40px rgba(0, 0, 0, 0.25)' }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 3 }}>
            <Avatar sx={{ bgcolor: 'primary.main', width: 56, height: 56, mb: 1.5 }}>
              <SpaIcon fontSize="large" />
            </Avatar>
            <Typography variant="h6" component="p" color="primary" sx={{ letterSpacing: 0.3 }}>
              {translate('pos.company')}
            </Typography>
            <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.6 }}>
              {translate('pos.back_office')}
            </Typography>
          </Box>
          <Typography variant="h5" component="h1" align="center" gutterBottom>
            {title}
          </Typography>
          {subtitle ? (
            <Typography variant="body2" color="text.secondary" align="center" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          ) : (
            <Box sx={{ mb: 2 }} />
          )}
          {children}
        </CardContent>
      </Card>
      <Typography variant="caption" sx={{ color: 'rgba(255,255,255,0.75)', mt: 3 }}>
        © {new Date().getFullYear()} {translate('pos.company')}
      </Typography>
    </Box>
  );
};
