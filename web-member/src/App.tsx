import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { RequireMember } from './auth/RequireMember';
import { MemberLayout } from './layout/MemberLayout';
import { FullPageLoader } from './components/FullPageLoader';
import { pages } from './routes';

// Every page is its own chunk (routes.ts), started by main.tsx for the address being opened.
const LoginPage = lazy(pages.login);
const RegisterPage = lazy(pages.register);
const EmailConfirmationPage = lazy(pages.emailConfirmation);
const TwoFactorAuthPage = lazy(pages.twoFactorAuth);
const ResetPasswordPage = lazy(pages.resetPassword);
const PrivacyPolicyPage = lazy(pages.privacyPolicy);
const WelcomePage = lazy(pages.welcome);
const DashboardPage = lazy(pages.dashboard);
const ProfilePage = lazy(pages.profile);
const SecurityPage = lazy(pages.security);
const WalletPage = lazy(pages.wallet);
const DownlinesPage = lazy(pages.downlines);
const GenealogyPage = lazy(pages.genealogy);
const PaymentCompletePage = lazy(pages.paymentComplete);
const NotFoundPage = lazy(pages.notFound);
const RepurchasePage = lazy(pages.repurchase);
const BecomeStockistPage = lazy(pages.becomeStockist);
const StockistProfilePage = lazy(() => pages.stockistPortal().then((m) => ({ default: m.StockistProfilePage })));
const StockPurchasePage = lazy(() => pages.stockistPortal().then((m) => ({ default: m.StockPurchasePage })));
const OrderProcessingPage = lazy(() => pages.stockistPortal().then((m) => ({ default: m.OrderProcessingPage })));
const StockistRecordPage = lazy(() => pages.stockistPortal().then((m) => ({ default: m.StockistRecordPage })));

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
