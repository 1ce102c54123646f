import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { Admin, CustomRoutes } from 'react-admin';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { Dashboard } from './dashboard';
import { i18nProvider } from './i18n';
import { Layout } from './layout';
import { AdminLogin, PublicShell, ResetPassword, TwoFactorAuth } from './login';
import { SecurityPage } from './security';
import { lightTheme } from './themes/theme';

/**
 * The back office under /admin (react-admin with basename) and its public sign-in pages beside it at
 * the site root (seed 000 §2.1), all in one router. Resources are added inside <Admin>, one line each:
 *   <Resource name="members" {...members} />
 */
const BackOffice = () => (
  <Admin
    basename="/admin"
    title="pos.company"
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    theme={lightTheme}
    darkTheme={null}
    layout={Layout}
    dashboard={Dashboard}
    loginPage={false}
    requireAuth
    disableTelemetry
  >
    <CustomRoutes>
      <Route path="/security" element={<SecurityPage />} />
    </CustomRoutes>
  </Admin>
);

export const App = () => (
  <BrowserRouter>
    <Routes>
      <Route element={<PublicShell />}>
        <Route path="/admin-login" element={<AdminLogin />} />
        <Route path="/admin-two-factor-auth" element={<TwoFactorAuth />} />
        <Route path="/admin-reset-password" element={<ResetPassword />} />
      </Route>
      <Route path="/admin/*" element={<BackOffice />} />
      <Route path="*" element={<Navigate to="/admin" replace />} />
    </Routes>
  </BrowserRouter>
);
