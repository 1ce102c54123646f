import { type ReactNode } from 'react';
import { Stack, Typography } from '@mui/material';

/** Points and counts as the seeds show them: grouped, at most two decimals. */
export const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function CardTitle({ icon, title, id, action }: { icon: ReactNode; title: string; id: string; action?: ReactNode }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5, minHeight: 32 }}>
      {icon}
      <Typography id={id} variant="h6" component="h2" sx={{ flex: 1 }}>
        {title}
      </Typography>
      {action}
    </Stack>
  );
}

export function SectionHeading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="overline" component="h2" color="text.secondary" sx={{ display: 'block', mt: { xs: 1, sm: 2 }, mb: -1 }}>
      {children}
    </Typography>
  );
}
