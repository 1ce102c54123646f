import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { Dashboard } from './dashboard';
import packages from './packages';
import products from './products';
import companyBanks from './company-banks';
import stockistPackages from './stockist-packages';
import incentiveClaims from './incentive-claims';
import members from './members';
import incentives from './incentives';
import ranks from './ranks';
import packagePayments from './package-payments';
import registrations from './registrations';
import upgrades from './upgrades';
import withdrawals from './withdrawals';
import productSales from './product-sales';
import matchingCycles from './matching-cycles';
import { globalProfitRuns, profitPoolRuns } from './profit-runs';
import { i18nProvider } from './i18n';
import { Layout } from './layout';
import { AdminLogin, PublicShell, ResetPassword, TwoFactorAuth } from './login';
import { lazyScreen } from './common/lazy';
import { settingsRoutes } from './settings';
import { lightTheme } from './themes/theme';
import events, { StreamTimeline, TracePage } from './event-log';

const CompanyFinance = lazyScreen(() => import('./finance/CompanyFinance'), 'CompanyFinance');
const SecurityPage = lazyScreen(() => import('./security/SecurityPage'), 'SecurityPage');
const ConsumersPage = lazyScreen(() => import('./consumers/ConsumersPage'), 'ConsumersPage');
const TamperCheckPage = lazyScreen(() => import('./tamper-check/TamperCheckPage'), 'TamperCheckPage');
const TransactionsPage = lazyScreen(() => import('./transactions/TransactionsPage'), 'TransactionsPage');

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
    <Resource name="members" {...members} />
    <Resource name="incentive-claims" {...incentiveClaims} />
    <Resource name="incentives" {...incentives} />
    <Resource name="ranks" {...ranks} />
    <Resource name="package-payments" {...packagePayments} />
    <Resource name="registrations" {...registrations} />
    <Resource name="upgrades" {...upgrades} />
    <Resource name="withdrawals" {...withdrawals} />
    <Resource name="product-sales" {...productSales} />
    <Resource name="matching-cycles" {...matchingCycles} />
    <Resource name="matching-results" />
    <Resource name="global-profit-runs" {...globalProfitRuns} />
    <Resource name="profit-pool-runs" {...profitPoolRuns} />
    <Resource name="packages" {...packages} />
    <Resource name="products" {...products} />
    <Resource name="company-banks" {...companyBanks} />
    <Resource name="stockist-packages" {...stockistPackages} />
    <Resource name="events" {...events} />
    <CustomRoutes>
      <Route path="/security" element={<SecurityPage />} />
      <Route path="/wallet" element={<CompanyFinance />} />
      <Route path="/consumers" element={<ConsumersPage />} />
      <Route path="/tamper-check" element={<TamperCheckPage />} />
      <Route path="/transactions/*" element={<TransactionsPage />} />
      <Route path="/stockist-history" element={<Navigate to="/admin/transactions/stockists" replace />} />
      {settingsRoutes}
      <Route path="/streams/:streamId" element={<StreamTimeline />} />
      <Route path="/trace/:id" element={<TracePage />} />
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
