import { Outlet } from 'react-router-dom';
import { CssBaseline } from '@mui/material';
import { AdminContext, Notification } from 'react-admin';
import { i18nProvider } from '../i18n';
import { lightTheme } from '../themes/theme';

/**
 * The public sign-in pages live outside <Admin> (and outside its /admin basename), so they get their
 * own react-admin context: same theme, translations and notifications, no authProvider (nothing to
 * log out of), no dataProvider calls.
 */
export const PublicShell = () => (
  <AdminContext i18nProvider={i18nProvider} theme={lightTheme} darkTheme={null}>
    <CssBaseline />
    <Outlet />
    <Notification />
  </AdminContext>
);
