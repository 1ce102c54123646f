/**
 * Each page's code, loaded once. The routes (App.tsx) render these lazily, and main.tsx starts the
 * opened address's page before React renders: a lazy route asks for its code only when React
 * reaches it, after the first script has run and the layout has rendered, which put a second
 * round of downloads (the page and its pieces) after the first (issue 11 item 7).
 */
import { type ComponentType, createElement, lazy, useState } from 'react';

/** A page's code: asked for once, and once arrived, at hand without waiting (`loaded`). */
type Loader<T> = (() => Promise<T>) & { loaded?: T };

function once<T>(load: () => Promise<T>): Loader<T> {
  let loading: Promise<T> | undefined;
  const loader: Loader<T> = () => {
    // A failed download (a deploy replaced the files) is tried again on the next call.
    loading ??= load().then(
      (module) => (loader.loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return loader;
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

/** Starts downloading the page at `pathname` (nothing for an unknown address); React waits on the same promise. */
export function startLoadingPage(pathname: string): Promise<unknown> {
  const load = pageAt[pathname.replace(/\/+$/, '') || '/'];
  // A failure shows when the route renders (its error reaches the page as before).
  return load ? load().catch(() => undefined) : Promise.resolve();
}

/**
 * React.lazy for a page, except that a page whose code has already arrived (main.tsx waits for the
 * opened one) renders at once: lazy suspends on its first render even when the download is over,
 * which drew the loader for a frame and the page after it, two renders where one does.
 */
export function lazyPage<M>(load: Loader<M>, pick: (module: M) => ComponentType): ComponentType {
  const Lazy = lazy(async () => ({ default: pick(await load()) }));
  return function Page(props: object) {
    // Chosen once per mount: switching from Lazy to the module's own component would remount the page.
    const [component] = useState<ComponentType>(() => (load.loaded ? pick(load.loaded) : Lazy));
    return createElement(component, props);
  };
}
