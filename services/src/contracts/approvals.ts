import { z } from 'zod';
import { packagePayment } from './payments';
import { nairaFigure, pageNumber } from './fields';

/**
 * The back office's registration and upgrade payment records (seed 002 "Transactions screen",
 * Registration History tab; seed 001 §2.12, §3.14). Money in naira.
 */

/** How a payment was made, as the back office names it. */
export const paymentMethodLabel = z.enum(['card', 'receipt', 'wallet']);
/**
 * Which of the seed's two tables a payment belongs to: `pending` (waiting for an admin's decision,
 * the Pending Payment Approvals table), `history` (a decided receipt, the Payment Upload History
 * table) or `other` (card and wallet payments, started card payments).
 */
export const paymentQueue = z.enum(['pending', 'history', 'other']);

/** GET /api/admin/package-payments[/:id]: every package payment (registration, upgrade, product purchase). */
export const adminPackagePayment = packagePayment.extend({
  member_id: z.string(),
  full_name: z.string(),
  method: paymentMethodLabel,
  queue: paymentQueue,
  /** The uploaded receipt image, served under /storage; null without one. */
  receipt_url: z.string().nullable(),
  /**
   * The reference the member was told to write on the bank transfer (contracts/bank-transfer.ts,
   * e.g. HLN-REG-CHIDI), so the admin can find the money on the company's statement. Receipt
   * payments for a registration or an upgrade only (the member pages show one for those); null
   * for card and wallet payments, which have no transfer, and for other purchases.
   */
  transfer_reference: z.string().nullable(),
  /** Naira of bonuses held for the member until this registration payment is decided: approving releases them. */
  held_bonuses: nairaFigure,
});
export type AdminPackagePayment = z.infer<typeof adminPackagePayment>;

/** GET /api/admin/registrations[/:id] (id = the member's uuid): a registration paid and approved. */
export const paidRegistration = z.object({
  id: z.string(),
  uuid: z.string(),
  member_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  username: z.string(),
  /** The registered package (seed: "Registered Package"; read as `name` too). */
  package_id: z.number().nullable(),
  package_name: z.string(),
  name: z.string(),
  current_package_name: z.string().nullable(),
  amount: nairaFigure,
  payment_id: z.string(),
  payment_type: z.enum(['payment_gateway', 'pop', 'wallet']),
  reference: z.string().nullable(),
  /** Approved upgrades since. */
  upgrades: z.number(),
  /** When the member registered (seed: "Registration Date"). */
  created_at: z.string(),
  /** When the registration payment was approved. */
  paid_at: z.string().nullable(),
});
export type PaidRegistration = z.infer<typeof paidRegistration>;

/** GET /api/admin/upgrades[/:id] (id = the upgrade payment): an approved package upgrade. */
export const packageUpgrade = z.object({
  id: z.string(),
  member_id: z.string(),
  uuid: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  username: z.string(),
  /** The packages the member held before this upgrade, oldest first (seed 001 §3.14 previous_packages). */
  previous_packages: z.array(z.string()),
  previous_package_name: z.string().nullable(),
  /** The new package (seed: "New Package"; read as `name` and `package` too). */
  package_name: z.string(),
  name: z.string(),
  package: z.string(),
  amount: nairaFigure,
  payment_type: z.enum(['payment_gateway', 'pop', 'wallet']),
  reference: z.string().nullable(),
  status: z.string(),
  /** When the upgrade was approved (seed: "Registration Upgrade Date"). */
  created_at: z.string(),
  requested_at: z.string(),
});
export type PackageUpgrade = z.infer<typeof packageUpgrade>;

const paged = <T extends z.ZodTypeAny>(row: T) =>
  z.object({ data: z.array(row), current_page: z.number(), last_page: z.number(), per_page: z.number(), total: z.number() });
export const paidRegistrationsPage = paged(paidRegistration);
export const packageUpgradesPage = paged(packageUpgrade);

export const approvalsQuery = {
  page: z.object({ page: pageNumber }),
  search: z.object({
    page: pageNumber,
    search: z.string().trim().max(100).optional().default(''),
  }),
};

export const approvalsMessages = {
  paymentNotFound: 'Payment not found.',
  registrationNotFound: 'Registration not found.',
  upgradeNotFound: 'Upgrade not found.',
  totalRegistrations: 'Total registrations',
  paidUsers: 'Paid users',
  noPaidUsers: 'There are not active user registrations',
  totalPaidUsers: 'Total paid users',
  sumPaidUsers: 'Sum of paid registrations',
  upgradedUsers: 'Upgraded users',
  noUpgradedUsers: 'There are no user registration upgrades',
} as const;
