import { Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { RequireMember } from './auth/RequireMember';
import { MemberLayout } from './layout/MemberLayout';
import { FullPageLoader } from './components/FullPageLoader';
import { lazyPage, pages } from './routes';

// Every page is its own chunk (routes.ts), started by main.tsx for the address being opened.
const LoginPage = lazyPage(pages.login, (m) => m.default);
const RegisterPage = lazyPage(pages.register, (m) => m.default);
const EmailConfirmationPage = lazyPage(pages.emailConfirmation, (m) => m.default);
const TwoFactorAuthPage = lazyPage(pages.twoFactorAuth, (m) => m.default);
const ResetPasswordPage = lazyPage(pages.resetPassword, (m) => m.default);
const PrivacyPolicyPage = lazyPage(pages.privacyPolicy, (m) => m.default);
const WelcomePage = lazyPage(pages.welcome, (m) => m.default);
const DashboardPage = lazyPage(pages.dashboard, (m) => m.default);
const ProfilePage = lazyPage(pages.profile, (m) => m.default);
const SecurityPage = lazyPage(pages.security, (m) => m.default);
const WalletPage = lazyPage(pages.wallet, (m) => m.default);
const DownlinesPage = lazyPage(pages.downlines, (m) => m.default);
const GenealogyPage = lazyPage(pages.genealogy, (m) => m.default);
const PaymentCompletePage = lazyPage(pages.paymentComplete, (m) => m.default);
const NotFoundPage = lazyPage(pages.notFound, (m) => m.default);
const RepurchasePage = lazyPage(pages.repurchase, (m) => m.default);
const BecomeStockistPage = lazyPage(pages.becomeStockist, (m) => m.default);
const StockistProfilePage = lazyPage(pages.stockistPortal, (m) => m.StockistProfilePage);
const StockPurchasePage = lazyPage(pages.stockistPortal, (m) => m.StockPurchasePage);
const OrderProcessingPage = lazyPage(pages.stockistPortal, (m) => m.OrderProcessingPage);
const StockistRecordPage = lazyPage(pages.stockistPortal, (m) => m.StockistRecordPage);

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
