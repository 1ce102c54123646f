import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Title, useTranslate } from 'react-admin';
import { useCanEditSettings, useSettings } from './useSettings';

/** A settings page: its title, a note for read-only staff, then its tables and cards. */
export const SettingsPage = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  const canEdit = useCanEditSettings();
  const { isError } = useSettings();
  return (
    <Box sx={{ mt: 2, mb: 4 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate(title)}
      </Typography>
      {!canEdit ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('pos.settings.read_only')}
        </Alert>
      ) : null}
      {isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {translate('pos.settings.loading_failed')}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>{children}</Box>
    </Box>
  );
};

/** Cards side by side on wide screens (up to `columns`), two on a tablet, one per row on a phone. */
export const CardGrid = ({ children, columns = 2 }: { children: ReactNode; columns?: number }) => (
  <Box
    sx={{
      display: 'grid',
      gap: 2,
      alignItems: 'start',
      gridTemplateColumns: { xs: '1fr', md: `repeat(${Math.min(columns, 2)}, minmax(0, 1fr))`, lg: `repeat(${columns}, minmax(0, 1fr))` },
    }}
  >
    {children}
  </Box>
);
