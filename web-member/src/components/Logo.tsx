import { Box, Typography } from '@mui/material';
import { BRAND } from '../lib/brand';

export function LeafMark({ size = 36, inverted = false }: { size?: number; inverted?: boolean }) {
  const bg = inverted ? '#ffffff' : '#237146';
  const fg = inverted ? '#237146' : '#e8f5ec';
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="16" fill={bg} />
      <path d="M46 14c-15 0-28 8.5-28 23.5 0 4 1.2 7.6 3.4 10.5 2-9.7 8.6-17.3 18-21.5-7.6 5.4-12.6 12.8-14.7 22.3 3 2 6.6 3.2 10.6 3.2 12.8 0 17.4-15 10.7-38z" fill={fg} />
    </svg>
  );
}

export function Logo({ inverted = false, size = 36 }: { inverted?: boolean; size?: number }) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.25 }}>
      <LeafMark size={size} inverted={inverted} />
      <Typography
        component="span"
        sx={{ fontWeight: 800, fontSize: size * 0.5, letterSpacing: '-0.01em', color: inverted ? '#fff' : 'text.primary' }}
      >
        {BRAND.name}
      </Typography>
    </Box>
  );
}
