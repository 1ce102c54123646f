import type { z } from 'zod';
import type { initiatedGatewayPayment, PackageDifference, PackagePayment, verifiedPayment } from '@portal/services/contracts/payments';
import type { BankListItem, VerifiedBank } from '@portal/services/contracts/profile';
import { api } from './client';

export type InitiatedGatewayPayment = z.infer<typeof initiatedGatewayPayment>;
export type VerifiedPayment = z.infer<typeof verifiedPayment>;

/** Statuses in which a package payment waits for an administrator's decision. */
export const AWAITING_ADMIN: ReadonlySet<string> = new Set(['pending', 'amount_mismatch', 'not_applied']);

/** The seeds' paged list shape. */
export interface Paged<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

/** What a package payment is for: the registration (is_upgrade 0) or an upgrade to `packageId`. */
export interface PackagePaymentTarget {
  /** Naira, as shown to the member; the server refuses it when it is not the amount due. */
  amount: number;
  description: string;
  isUpgrade: boolean;
  packageId: number;
}

const paymentFields = (target: PackagePaymentTarget) => ({
  amount: target.amount,
  description: target.description,
  txn_source: 'package_payment',
  is_upgrade: target.isUpgrade ? 1 : 0,
  meta_data: target.packageId,
});

export const paymentsApi = {
  banks: (signal?: AbortSignal) => api.get<BankListItem[]>('/payments/banks', { signal }),
  verifyBank: (body: { bank_name: string; account_number: string; bank_code: string }) =>
    api.post<VerifiedBank>('/payments/verify-bank-details', body),

  /** Card payment: the answer carries the provider's page to embed. */
  initiateCard: (target: PackagePaymentTarget) =>
    api.post<InitiatedGatewayPayment>('/payments/initiate', { ...paymentFields(target), payment_type: 'payment_gateway' }),

  /** Proof of payment: multipart with the image in `payment_receipt`. */
  uploadReceipt: (target: PackagePaymentTarget, receipt: File) => {
    const form = new FormData();
    for (const [key, value] of Object.entries({ ...paymentFields(target), payment_type: 'pop' })) form.append(key, String(value));
    form.append('payment_receipt', receipt);
    return api.post<{ payment_id: string; amount: number }>('/payments/initiate', form);
  },

  /** Quiet: the payment dialog tells the member itself when a payment cannot be verified. */
  verify: (reference: string) => api.post<VerifiedPayment>('/payments/verify', { reference }, { quiet: true }),

  packagePayments: (memberId: string, signal?: AbortSignal) => api.get<Paged<PackagePayment>>(`/users/${memberId}/package-payments`, { signal }),
  upgradeHistory: (memberId: string, page = 1, signal?: AbortSignal) =>
    api.get<Paged<PackagePayment>>(`/payments/${memberId}/user-upgrade-history?page=${page}`, { signal }),
  packageDifference: (memberId: string, packageId: number, signal?: AbortSignal) =>
    api.get<PackageDifference | null>(`/users/${memberId}/package-difference?package_id=${packageId}`, { signal }),
};
