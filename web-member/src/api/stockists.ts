import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CompanyBank, Product, StockistPackage } from '@portal/services/contracts/catalogue';
import type { PackageDifference } from '@portal/services/contracts/payments';
import type { PickupStatus, ProductPurchase } from '@portal/services/contracts/purchases';
import type {
  orderLookup,
  prevMonthSales,
  processedOrder,
  productClaim,
  publicStockist,
  rebateEarning,
  stockDetail,
  stockPurchase,
  stockRecord,
  stockist,
  stockistPackageDifference,
  stockistStats,
  stockistUpgradeHistoryRow,
} from '@portal/services/contracts/stockists';
import { api } from './client';
import type { Paged } from './payments';

export type Stockist = z.infer<typeof stockist>;
export type PublicStockist = z.infer<typeof publicStockist>;
export type OrderLookup = z.infer<typeof orderLookup>;
export type ProcessedOrder = z.infer<typeof processedOrder>;
export type StockPurchase = z.infer<typeof stockPurchase>;
export type StockRecord = z.infer<typeof stockRecord>;
export type StockDetail = z.infer<typeof stockDetail>;
export type RebateEarning = z.infer<typeof rebateEarning>;
export type StockistStats = z.infer<typeof stockistStats>;
export type PrevMonthSales = z.infer<typeof prevMonthSales>;
export type StockistPackageDifference = z.infer<typeof stockistPackageDifference>;
export type UpgradeHistoryRow = z.infer<typeof stockistUpgradeHistoryRow>;
export type ProductClaim = z.infer<typeof productClaim>;
/** A product claim's state: processing until a stockist (or an admin) hands it over. */
export type ClaimStatus = 'processing' | 'approved' | 'declined';

/** A cart line as the screens keep it (seed 001 §3.5). */
export interface CartLine {
  id: number;
  qty: number;
  price: number;
  product: Product;
}

export const cartTotals = (cart: CartLine[]) => ({
  total_price: Math.round(cart.reduce((sum, l) => sum + l.product.worth * l.qty, 0) * 100) / 100,
  total_points: cart.reduce((sum, l) => sum + l.product.points * l.qty, 0),
  total_quantity: cart.reduce((sum, l) => sum + l.qty, 0),
});

const orderBody = (cart: CartLine[], pickupType: string) => ({ pickup_type: pickupType, products: cart.map((l) => ({ id: l.id, qty: l.qty })), ...cartTotals(cart) });

export const stockistApi = {
  products: (signal?: AbortSignal) => api.get<Product[]>('/products/active', { signal }),
  companyBanks: (signal?: AbortSignal) => api.get<CompanyBank[]>('/banks/all', { signal }),
  stockistPackages: (signal?: AbortSignal) => api.get<StockistPackage[]>('/stockist-packages/all', { signal }),
  stockists: (page: number, search: string, signal?: AbortSignal) =>
    search.trim() ? api.get<Paged<PublicStockist>>(`/stockists/search?page=${page}&search=${encodeURIComponent(search.trim())}`, { signal }) : api.get<Paged<PublicStockist>>(`/stockists/all?page=${page}`, { signal }),
  history: (memberId: string, page: number, signal?: AbortSignal) => api.get<Paged<ProductPurchase>>(`/product-purchases/user/${memberId}/history?page=${page}`, { signal }),
  claims: (memberId: string, page: number, status: ClaimStatus | undefined, signal?: AbortSignal) =>
    api.get<Paged<ProductClaim>>(`/product-claims/${memberId}/claims?page=${page}${status ? `&status=${status}` : ''}`, { signal }),
  /** Whether the member's registration and latest upgrade pick-ups are taken, as the server decides when it refuses one. */
  pickupStatus: (memberId: string, signal?: AbortSignal) => api.get<PickupStatus>(`/product-purchases/user/${memberId}/pickup-status`, { signal }),
  /** The member's latest upgrade and whether its one pick-up was taken; null before any upgrade. */
  memberUpgradePickup: (memberId: string, signal?: AbortSignal) => api.get<PackageDifference | null>(`/users/${memberId}/package-difference?is_upgrade_pickup=1`, { signal }),
  placeAllowanceOrder: (memberId: string, cart: CartLine[], pickupType: string) => api.post<{ purchase_id: string }>(`/product-purchases/user/${memberId}`, orderBody(cart, pickupType)),
  payFromWallet: (cart: CartLine[]) =>
    api.patch<{ purchase_id: string }>('/withdrawals/pay-with-wallet', { ...orderBody(cart, 'repurchase_pickup'), txn_source: 'member_product_purchase', description: 'Product repurchase', amount: cartTotals(cart).total_price }),
  payByCard: (cart: CartLine[]) =>
    api.post<{ authorization_url: string; reference: string }>('/payments/initiate', { ...orderBody(cart, 'repurchase_pickup'), txn_source: 'member_product_purchase', description: 'Product repurchase', amount: cartTotals(cart).total_price, payment_type: 'payment_gateway' }),
  payByReceipt: (cart: CartLine[], receipt: File) => {
    const form = new FormData();
    const body = { ...orderBody(cart, 'repurchase_pickup'), txn_source: 'member_product_purchase', description: 'Product repurchase', amount: cartTotals(cart).total_price, payment_type: 'pop' };
    for (const [key, value] of Object.entries(body)) form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    form.append('payment_receipt', receipt);
    return api.post<{ purchase_id: string }>('/payments/initiate', form);
  },
  orderCode: (orderId: string, password: string) => api.post<{ order_code: string }>('/product-purchases/order-code', { order_id: orderId, password }),
  orderDetails: (id: string, signal?: AbortSignal) => api.get<{ products: Array<{ name: string; image: string | null; product_qty: number; price: number }> }>(`/product-purchases/${id}/order-details`, { signal }),

  apply: (form: FormData) => api.post<Stockist>('/stockists/create', form),
  mine: (memberId: string, signal?: AbortSignal) => api.get<Stockist | null>(`/stockists/user/${memberId}/single`, { signal }),
  update: (id: string, body: Record<string, string>) => api.put<Stockist>(`/stockists/${id}/update`, body),
  difference: (packageId: number, upgradePickup = false, signal?: AbortSignal) =>
    api.get<StockistPackageDifference>(`/stockists/package/${packageId}/difference${upgradePickup ? '?is_upgrade_pickup=1' : ''}`, { signal, quiet: upgradePickup }),
  upgrade: (id: string, packageId: number, receipt: File) => {
    const form = new FormData();
    form.append('stockist_package_id', String(packageId));
    form.append('payment_receipt', receipt);
    return api.post<Stockist>(`/stockists/${id}/upgrade`, form);
  },
  upgradeHistory: (memberId: string, signal?: AbortSignal) => api.get<UpgradeHistoryRow[]>(`/payments/${memberId}/stockist-upgrade-history`, { signal }),
  buyStock: (memberId: string, cart: CartLine[], pickupType: string, receipt: File | null) => {
    const form = new FormData();
    const body = orderBody(cart, pickupType);
    for (const [key, value] of Object.entries(body)) form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    if (receipt) form.append('payment_receipt', receipt);
    return api.post<StockPurchase>(`/product-purchases/stockist/${memberId}`, form);
  },
  /** A re-stock paid by card (seed 001 §7.1): the purchase goes to the admins once the provider confirms the payment. */
  payStockByCard: (cart: CartLine[]) =>
    api.post<{ authorization_url: string; reference: string; purchase_id: string }>('/payments/initiate', { ...orderBody(cart, 're-stock'), txn_source: 'stockist_product_purchase', description: 'Stockist re-stock', amount: cartTotals(cart).total_price, payment_type: 'payment_gateway' }),
  prevMonthSales: (memberId: string, signal?: AbortSignal) => api.get<PrevMonthSales>(`/product-purchases/stockist-prev-month-sales/${memberId}`, { signal }),
  lookup: (code: string) => api.get<OrderLookup>(`/product-purchases/fetch-order/${encodeURIComponent(code.trim())}`),
  approveOrder: (purchaseId: string) => api.patch<{ status: string }>(`/product-purchases/${purchaseId}/vendor-approve`),
  processed: (memberId: string, page: number, signal?: AbortSignal) => api.get<Paged<ProcessedOrder>>(`/product-purchases/vendor/${memberId}/processed-orders?page=${page}`, { signal }),
  stats: (memberId: string, signal?: AbortSignal) => api.get<StockistStats>(`/stockists/${memberId}/stats`, { signal }),
  stock: (memberId: string, signal?: AbortSignal) => api.get<StockRecord[]>(`/stockists/${memberId}/stock`, { signal }),
  stockPurchases: (memberId: string, page: number, signal?: AbortSignal) => api.get<Paged<StockPurchase>>(`/product-purchases/stockist/${memberId}/history?page=${page}`, { signal }),
  /** Whether the stockist's stock registration and latest upgrade pick-ups are taken, as the server decides when it refuses one. */
  stockPickupStatus: (memberId: string, signal?: AbortSignal) => api.get<PickupStatus>(`/product-purchases/stockist/${memberId}/pickup-status`, { signal }),
  stockDetails: (memberId: string, signal?: AbortSignal) => api.get<StockDetail[]>(`/product-purchases/${memberId}/stock-details`, { signal }),
  rebates: (memberId: string, signal?: AbortSignal) => api.get<RebateEarning[]>(`/stockists/${memberId}/rebate-earnings`, { signal }),
};

export const stockistKeys = {
  all: ['stockist'] as const,
  products: ['stockist', 'products'] as const,
  banks: ['stockist', 'company-banks'] as const,
  packages: ['stockist', 'packages'] as const,
  mine: (id: string) => ['stockist', 'mine', id] as const,
};

// Each query's options are also started before its page renders (page-data.ts), so they are shared.
export const productsQuery = () =>
  queryOptions({ queryKey: stockistKeys.products, queryFn: async ({ signal }) => (await stockistApi.products(signal)).data ?? [], staleTime: 60_000 });
export const companyBanksQuery = () =>
  queryOptions({ queryKey: stockistKeys.banks, queryFn: async ({ signal }) => (await stockistApi.companyBanks(signal)).data ?? [], staleTime: 5 * 60_000 });
export const stockistPackagesQuery = () =>
  queryOptions({ queryKey: stockistKeys.packages, queryFn: async ({ signal }) => (await stockistApi.stockistPackages(signal)).data ?? [], staleTime: 5 * 60_000 });
export const myStockistQuery = (memberId: string) =>
  queryOptions({ queryKey: stockistKeys.mine(memberId), queryFn: async ({ signal }) => (await stockistApi.mine(memberId, signal)).data ?? null });
/** One answer's data under ['stockist', ...key] (paged answers, records). */
export const stockistQuery = <T>(key: readonly unknown[], fetch: (signal: AbortSignal) => Promise<{ data: T }>) =>
  queryOptions({ queryKey: ['stockist', ...key], queryFn: async ({ signal }) => (await fetch(signal)).data });
/** Whether the member's once-only pick-ups are taken (the order page offers only the rest). */
export const pickupStatusQuery = (memberId: string) => stockistQuery(['pickup-status', memberId], (signal) => stockistApi.pickupStatus(memberId, signal));
/** Whether the stockist's once-only stock pick-ups are taken (the stock purchase page offers only the rest). */
export const stockPickupStatusQuery = (memberId: string) => stockistQuery(['stock-pickup-status', memberId], (signal) => stockistApi.stockPickupStatus(memberId, signal));
/** A list under ['stockist', ...key], empty when the server sends none. */
export const stockistListQuery = <T>(key: readonly unknown[], fetch: (signal: AbortSignal) => Promise<{ data: T[] }>) =>
  queryOptions({ queryKey: ['stockist', ...key], queryFn: async ({ signal }) => (await fetch(signal)).data ?? [] });

export function useProducts() {
  return useQuery(productsQuery());
}
export function useCompanyBanks() {
  return useQuery(companyBanksQuery());
}
export function useStockistPackages() {
  return useQuery(stockistPackagesQuery());
}
export function useMyStockist(memberId: string) {
  return useQuery(myStockistQuery(memberId));
}
export function usePaged<T>(key: readonly unknown[], fetch: (signal: AbortSignal) => Promise<{ data: Paged<T> }>) {
  return useQuery({ ...stockistQuery(key, fetch), placeholderData: keepPreviousData });
}
export function useList<T>(key: readonly unknown[], fetch: (signal: AbortSignal) => Promise<{ data: T[] }>) {
  return useQuery(stockistListQuery(key, fetch));
}

/** The 36 states and FCT (seed 001 §2.2). */
export const NIGERIAN_STATES = [
  'Abia', 'Adamawa', 'Akwa Ibom', 'Anambra', 'Bauchi', 'Bayelsa', 'Benue', 'Borno', 'Cross River', 'Delta', 'Ebonyi', 'Edo', 'Ekiti', 'Enugu',
  'FCT - Abuja', 'Gombe', 'Imo', 'Jigawa', 'Kaduna', 'Kano', 'Katsina', 'Kebbi', 'Kogi', 'Kwara', 'Lagos', 'Nasarawa', 'Niger', 'Ogun', 'Ondo',
  'Osun', 'Oyo', 'Plateau', 'Rivers', 'Sokoto', 'Taraba', 'Yobe', 'Zamfara',
];
