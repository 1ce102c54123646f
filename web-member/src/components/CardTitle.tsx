import type { ReactNode } from 'react';
import { Stack, Typography } from '@mui/material';

/** A card's heading: icon, title (an h2 the card's aria-labelledby names) and an optional action at the right. */
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
