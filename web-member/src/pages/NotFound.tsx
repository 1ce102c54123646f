import { Box, Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../components/Logo';

export const NOT_FOUND_MESSAGE = 'oops! Something went wrong. The page you are looking for is not found';

export default function NotFoundPage() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', textAlign: 'center', px: 3, bgcolor: 'background.default' }}>
      <Box sx={{ mb: 5 }}>
        <Logo />
      </Box>
      <Typography
        aria-hidden
        sx={{ fontSize: { xs: '5.5rem', sm: '8rem' }, fontWeight: 800, lineHeight: 1, letterSpacing: '-0.04em', color: 'primary.main', opacity: 0.9 }}
      >
        404
      </Typography>
      <Typography variant="h6" component="h1" sx={{ mt: 2, maxWidth: 460 }} data-testid="not-found-message">
        {NOT_FOUND_MESSAGE}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" size="large" sx={{ mt: 4 }}>
        Back to home
      </Button>
    </Box>
  );
}
