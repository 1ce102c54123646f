/**
 * Each page's code, loaded once. The routes (App.tsx) render these lazily, and main.tsx starts the
 * opened address's page before React renders: a lazy route asks for its code only when React
 * reaches it, after the first script has run and the layout has rendered, which put a second
 * round of downloads (the page and its pieces) after the first (issue 11 item 7).
 */
type Loader<T> = () => Promise<T>;

function once<T>(load: Loader<T>): Loader<T> {
  let loading: Promise<T> | undefined;
  return () => {
    // A failed download (a deploy replaced the files) is tried again on the next call.
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

export const pages = {
  login: once(() => import('./pages/Login')),
  register: once(() => import('./pages/Register')),
  emailConfirmation: once(() => import('./pages/EmailConfirmation')),
  twoFactorAuth: once(() => import('./pages/TwoFactorAuth')),
  resetPassword: once(() => import('./pages/ResetPassword')),
  privacyPolicy: once(() => import('./pages/PrivacyPolicy')),
  welcome: once(() => import('./pages/Welcome')),
  dashboard: once(() => import('./pages/Dashboard')),
  profile: once(() => import('./pages/Profile')),
  security: once(() => import('./pages/Security')),
  wallet: once(() => import('./pages/Wallet')),
  downlines: once(() => import('./pages/Downlines')),
  genealogy: once(() => import('./pages/Genealogy')),
  paymentComplete: once(() => import('./pages/PaymentComplete')),
  notFound: once(() => import('./pages/NotFound')),
  repurchase: once(() => import('./pages/Repurchase')),
  becomeStockist: once(() => import('./pages/BecomeStockist')),
  stockistPortal: once(() => import('./pages/StockistPortal')),
};

/** The page each address opens (App.tsx's routes; /user opens the dashboard). */
const pageAt: Record<string, Loader<unknown>> = {
  '/': pages.login,
  '/login': pages.login,
  '/register': pages.register,
  '/email-confirmation': pages.emailConfirmation,
  '/two-factor-auth': pages.twoFactorAuth,
  '/reset-password': pages.resetPassword,
  '/privacy-policy': pages.privacyPolicy,
  '/payment-complete': pages.paymentComplete,
  '/welcome': pages.welcome,
  '/user': pages.dashboard,
  '/user/dashboard': pages.dashboard,
  '/user/profile': pages.profile,
  '/user/security': pages.security,
  '/user/wallet': pages.wallet,
  '/user/downlines': pages.downlines,
  '/user/genealogy': pages.genealogy,
  '/user/repurchase': pages.repurchase,
  '/user/stockist-registration': pages.becomeStockist,
  '/user/stockist-profile': pages.stockistPortal,
  '/user/stock-purchase': pages.stockistPortal,
  '/user/stockist-record': pages.stockistPortal,
  '/user/order': pages.stockistPortal,
};

/** Starts downloading the page at `pathname` (no-op for an unknown address); React waits on the same promise. */
export function startLoadingPage(pathname: string): void {
  const load = pageAt[pathname.replace(/\/+$/, '') || '/'];
  // A failure shows when the route renders (its error reaches the page as before).
  void load?.().catch(() => undefined);
}
