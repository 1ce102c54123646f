import { Box, CircularProgress, Typography } from '@mui/material';

export function FullPageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Box role="status" aria-live="polite" sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }}>
      <Box sx={{ textAlign: 'center' }}>
        <CircularProgress size={36} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          {label}…
        </Typography>
      </Box>
    </Box>
  );
}
