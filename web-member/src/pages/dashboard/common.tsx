import { type ReactNode } from 'react';
import { Typography } from '@mui/material';

/** Points and counts as the seeds show them: grouped, at most two decimals. */
export const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export { CardTitle } from '../../components/CardTitle';

export function SectionHeading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="overline" component="h2" color="text.secondary" sx={{ display: 'block', mt: { xs: 1, sm: 2 }, mb: -1 }}>
      {children}
    </Typography>
  );
}
