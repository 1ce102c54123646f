import { hashKey, type QueryClient } from '@tanstack/react-query';
import type { AuthUser } from '@portal/services/contracts/auth';
import { getStoredUser, getToken } from './auth/token';
import {
  bonusesQuery,
  bonusStatsQuery,
  currentIncentiveQuery,
  globalProfitsQuery,
  incentiveClaimsQuery,
  matchingStatusQuery,
  settingsQuery,
  totalPvQuery,
  walletBalanceQuery,
  withdrawalsQuery,
} from './api/earnings-queries';
import { directDownlinesQuery, downlinesQuery, genealogyQuery } from './api/genealogy';
import { GENEALOGY_MAX_DEPTH } from '@portal/services/contracts/genealogy-depth';
import { currentUserQuery, memberProfileQuery, packageQuery, packagesQuery, placementPreferenceQuery, profileDetailsQuery, upgradeHistoryQuery, uplineQuery } from './api/queries';
import { companyBanksQuery, myStockistQuery, pickupStatusQuery, productsQuery, stockPickupStatusQuery, stockistApi, stockistListQuery, stockistPackagesQuery, stockistQuery } from './api/stockists';

/**
 * The api calls of the page being opened, started before its code has arrived (issue 11 item 7).
 * A page asks for its data when it renders, which is after its chunk is downloaded and run: the
 * calls listed here leave with the first script instead, and the page's own queries (the same
 * keys and functions: the *Query options) find them answered or in flight. Only for a signed-in,
 * paid member whose account is kept beside the token (the case where RequireMember renders at
 * once); a page missing here simply asks when it renders, as before.
 */
type Starter = (user: AuthUser, search: URLSearchParams) => Array<{ queryKey: readonly unknown[]; queryFn?: unknown; enabled?: unknown }>;

const pageData: Record<string, Starter> = {
  '/user/dashboard': (user) => [
    bonusStatsQuery(user.uuid),
    totalPvQuery(user.uuid),
    currentIncentiveQuery(user.uuid),
    incentiveClaimsQuery(user.uuid),
    settingsQuery(),
    packageQuery(user.package_id),
    matchingStatusQuery(user.uuid),
  ],
  '/user/wallet': (user) => [
    walletBalanceQuery(user.uuid),
    bonusesQuery(user.uuid, 1),
    globalProfitsQuery(user.uuid, 1),
    withdrawalsQuery(user.uuid, 1),
    settingsQuery(),
    matchingStatusQuery(user.uuid),
  ],
  '/user/profile': (user) => [memberProfileQuery(user.uuid), uplineQuery(user.uuid), placementPreferenceQuery(user.uuid), packagesQuery(), upgradeHistoryQuery(user.uuid, 1)],
  '/user/genealogy': (user) => [genealogyQuery(user.uuid, GENEALOGY_MAX_DEPTH)],
  '/user/downlines': (user, search) => [directDownlinesQuery(user.uuid), downlinesQuery(user.uuid, Math.max(1, Math.floor(Number(search.get('page')) || 1)))],
  '/user/repurchase': (user) => [
    productsQuery(),
    stockistQuery(['list', 1, ''], (signal) => stockistApi.stockists(1, '', signal)),
    pickupStatusQuery(user.uuid),
    stockistQuery(['history', user.uuid, 1], (signal) => stockistApi.history(user.uuid, 1, signal)),
    packageQuery(user.reg_package_id ?? user.package_id),
  ],
  '/user/stockist-registration': (user) => [stockistPackagesQuery(), myStockistQuery(user.uuid), companyBanksQuery()],
};

/** The Stockist Portal's pages: only for a stockist (anyone else is refused, which ends the session). */
const stockistPageData: Record<string, Starter> = {
  '/user/stockist-profile': (user) => [myStockistQuery(user.uuid), stockistPackagesQuery(), companyBanksQuery(), stockistListQuery(['upgrade-history', user.uuid], (signal) => stockistApi.upgradeHistory(user.uuid, signal))],
  '/user/stock-purchase': (user) => [myStockistQuery(user.uuid), stockistPackagesQuery(), productsQuery(), stockistQuery(['prev', user.uuid], (signal) => stockistApi.prevMonthSales(user.uuid, signal)), stockPickupStatusQuery(user.uuid)],
  '/user/order': (user) => [stockistQuery(['processed', user.uuid, 1], (signal) => stockistApi.processed(user.uuid, 1, signal))],
  '/user/stockist-record': (user) => [
    stockistQuery(['stats', user.uuid], (signal) => stockistApi.stats(user.uuid, signal)),
    stockistListQuery(['stock', user.uuid], (signal) => stockistApi.stock(user.uuid, signal)),
    stockistQuery(['stock-purchases', user.uuid, 1], (signal) => stockistApi.stockPurchases(user.uuid, 1, signal)),
    stockistListQuery(['stock-details', user.uuid], (signal) => stockistApi.stockDetails(user.uuid, signal)),
    stockistListQuery(['rebates', user.uuid], (signal) => stockistApi.rebates(user.uuid, signal)),
  ],
};
pageData['/user'] = pageData['/user/dashboard']!;

/** Queries started here, with when a component first showed each (undefined: not yet). */
const startedEarly = new Map<string, number | undefined>();
const EARLY_FRESH_MS = 3_000;

/**
 * The default staleTime. A query started early is fresh until the page has mounted and for a moment
 * after (the first component and the others of the same render, such as the layout's two avatars,
 * take its answer instead of asking again), however long the page's code took to arrive; every
 * other query keeps react-query's 0.
 */
export function freshAfterEarlyStart(query: { queryHash: string; state: { dataUpdatedAt: number }; getObserversCount: () => number }): number {
  if (!startedEarly.has(query.queryHash)) return 0;
  let shownAt = startedEarly.get(query.queryHash);
  if (shownAt === undefined) {
    if (query.getObserversCount() === 0) return Infinity;
    shownAt = Date.now();
    startedEarly.set(query.queryHash, shownAt);
  }
  return Math.max(0, shownAt + EARLY_FRESH_MS - query.state.dataUpdatedAt);
}

/**
 * Starts the opened page's api calls; answers when they have all settled (failed ones included), so
 * main.tsx can draw the page once with its data rather than first with skeletons.
 */
export function startPageData(queryClient: QueryClient, location: { pathname: string; search: string }): Promise<unknown> {
  if (!getToken()) return Promise.resolve();
  const user = getStoredUser<AuthUser>();
  if (!user || user.payment !== 'approved' || !user.uuid) return Promise.resolve();
  const path = location.pathname.replace(/\/+$/, '');
  if (!path.startsWith('/user')) return Promise.resolve();
  // The account (RequireMember, shown at once from the stored copy meanwhile), the layout's avatar
  // (every member page), then the page's own.
  const starter = pageData[path] ?? (user.is_stockist ? stockistPageData[path] : undefined);
  const queries = [currentUserQuery(), profileDetailsQuery(user.uuid), ...(starter?.(user, new URLSearchParams(location.search)) ?? [])];
  const started: Array<Promise<unknown>> = [];
  for (const options of queries) {
    if (options.enabled === false) continue;
    startedEarly.set(hashKey(options.queryKey), undefined);
    // Errors show when the page's own query renders (the api client has toasted them once).
    started.push(queryClient.prefetchQuery(options as Parameters<QueryClient['prefetchQuery']>[0]));
  }
  return Promise.all(started);
}
