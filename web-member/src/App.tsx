import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { RequireMember } from './auth/RequireMember';
import { MemberLayout } from './layout/MemberLayout';
import { FullPageLoader } from './components/FullPageLoader';
import LoginPage from './pages/Login';

const RegisterPage = lazy(() => import('./pages/Register'));
const EmailConfirmationPage = lazy(() => import('./pages/EmailConfirmation'));
const TwoFactorAuthPage = lazy(() => import('./pages/TwoFactorAuth'));
const ResetPasswordPage = lazy(() => import('./pages/ResetPassword'));
const PrivacyPolicyPage = lazy(() => import('./pages/PrivacyPolicy'));
const WelcomePage = lazy(() => import('./pages/Welcome'));
const DashboardPage = lazy(() => import('./pages/Dashboard'));
const ProfilePage = lazy(() => import('./pages/Profile'));
const SecurityPage = lazy(() => import('./pages/Security'));
const WalletPage = lazy(() => import('./pages/Wallet'));
const DownlinesPage = lazy(() => import('./pages/Downlines'));
const GenealogyPage = lazy(() => import('./pages/Genealogy'));
const PaymentCompletePage = lazy(() => import('./pages/PaymentComplete'));
const NotFoundPage = lazy(() => import('./pages/NotFound'));
const RepurchasePage = lazy(() => import('./pages/Repurchase'));
const BecomeStockistPage = lazy(() => import('./pages/BecomeStockist'));
const StockistProfilePage = lazy(() => import('./pages/StockistPortal').then((m) => ({ default: m.StockistProfilePage })));
const StockPurchasePage = lazy(() => import('./pages/StockistPortal').then((m) => ({ default: m.StockPurchasePage })));
const OrderProcessingPage = lazy(() => import('./pages/StockistPortal').then((m) => ({ default: m.OrderProcessingPage })));
const StockistRecordPage = lazy(() => import('./pages/StockistPortal').then((m) => ({ default: m.StockistRecordPage })));

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<FullPageLoader />}>
        <Routes>
          {/* public (seed 000 §2.1) */}
          <Route path="/" element={<LoginPage />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/email-confirmation" element={<EmailConfirmationPage />} />
          <Route path="/two-factor-auth" element={<TwoFactorAuthPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/privacy-policy" element={<PrivacyPolicyPage />} />
          {/* the card provider's return address, loaded inside the payment dialog's iframe */}
          <Route path="/payment-complete" element={<PaymentCompletePage />} />

          {/* signed-in members (seed 000 §6) */}
          <Route element={<RequireMember />}>
            <Route path="/welcome" element={<WelcomePage />} />
            <Route path="/user" element={<MemberLayout />}>
              <Route index element={<Navigate to="dashboard" replace />} />
              <Route path="dashboard" element={<DashboardPage />} />
              <Route path="profile" element={<ProfilePage />} />
              <Route path="security" element={<SecurityPage />} />
              <Route path="wallet" element={<WalletPage />} />
              <Route path="downlines" element={<DownlinesPage />} />
              <Route path="genealogy" element={<GenealogyPage />} />
              <Route path="repurchase" element={<RepurchasePage />} />
              <Route path="stockist-registration" element={<BecomeStockistPage />} />
              <Route path="stockist-profile" element={<StockistProfilePage />} />
              <Route path="stock-purchase" element={<StockPurchasePage />} />
              <Route path="stockist-record" element={<StockistRecordPage />} />
              <Route path="order" element={<OrderProcessingPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>

          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
