import type { Transaction } from 'kysely';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import type { ProductPurchaseCollected } from '../purchases/events';
import type { StockPurchaseApproved, StockistApproved } from '../stockists/events';
import type { BonusCause, CompensationEvent } from './events';
import { membersAt } from './facts-at-cause';
import { signeeBonus, stockistRebate, stockistUplineBonuses } from './policies';

/**
 * The stockist part of the compensation policy (BUSINESS-RULES.md §3): one function per cause
 * event, each deciding from the facts the cause event carries (package values and percentages,
 * the sponsor chain, who was active), so the bonus is as of the cause by construction and a
 * replay decides the same. A beneficiary found inactive whose registration payment awaited a
 * decision at the cause is read from the log at the cause's position: the bonus is held. compensation/projections.ts books the decisions with the batch's others (bookBonuses).
 */
type Trx = Transaction<Database>;

const causeOf = (event: RecordedEvent, memberId: string): BonusCause => ({ event_id: event.eventId, event_type: event.type, stream_id: event.streamId, member_id: memberId });

/**
 * For the beneficiaries the cause event found inactive: the registration payment each one had
 * awaiting an admin's decision at the cause, read as of the cause's place in the log (as the
 * other bonuses read it), so their bonus is held rather than withheld (BUSINESS-RULES.md §3).
 */
export type PendingPaymentsAt = (recorded: RecordedEvent, inactive: readonly string[]) => Promise<Map<string, string | null>>;

const pendingPaymentsIn = (trx: Trx): PendingPaymentsAt => async (recorded, inactive) => {
  if (inactive.length === 0) return new Map();
  const members = await membersAt(trx, inactive, recorded);
  return new Map(inactive.map((id) => [id, members.get(id)?.pendingPaymentId ?? null]));
};

/** Approval of a stockist registration on stockist package S: the signee gets pct(S.registration_value, stockist_referral_bonus_percentage). */
export async function signeeDecisions(pendingPaymentsAt: PendingPaymentsAt, recorded: RecordedEvent): Promise<CompensationEvent[]> {
  const event = recorded as RecordedEvent<StockistApproved>;
  const d = event.data;
  const pending = d.signee_active ? new Map<string, string | null>() : await pendingPaymentsAt(recorded, [d.signee_id]);
  return signeeBonus({
    cause: causeOf(recorded, d.member_id),
    signee: { id: d.signee_id, active: d.signee_active, pendingPaymentId: pending.get(d.signee_id) ?? null },
    stockistPackage: { id: d.stockist_package.id, registrationValueKobo: d.stockist_package.registration_value_kobo },
    stockistReferralPercentage: d.stockist_referral_bonus_percentage,
  });
}

/** An approved stock purchase of value V by stockist X: X's sponsor chain, by each beneficiary's package in the stockist upline table. */
export async function stockistUplineDecisions(pendingPaymentsAt: PendingPaymentsAt, recorded: RecordedEvent): Promise<CompensationEvent[]> {
  const event = recorded as RecordedEvent<StockPurchaseApproved>;
  const d = event.data;
  const pending = await pendingPaymentsAt(recorded, d.sponsor_chain.filter((u) => !u.active).map((u) => u.member_id));
  const tables = Object.fromEntries(Object.entries(d.stockist_upline_tables).map(([packageId, percentages]) => [Number(packageId), percentages]));
  return stockistUplineBonuses({
    cause: causeOf(recorded, d.member_id),
    valueKobo: d.total_price_kobo,
    sponsorChain: d.sponsor_chain.map((u) => ({ id: u.member_id, active: u.active, pendingPaymentId: pending.get(u.member_id) ?? null, packageId: u.package_id })),
    stockistUplineTables: tables,
  });
}

/** A stockist hands over a member's order of value V: the stockist gets pct(V, its package's sales_bonus_percentage). Orders an admin hands over pay no rebate. */
export async function stockistRebateDecisions(pendingPaymentsAt: PendingPaymentsAt, recorded: RecordedEvent): Promise<CompensationEvent[]> {
  const event = recorded as RecordedEvent<ProductPurchaseCollected>;
  const d = event.data;
  if (d.by !== 'stockist' || !d.stockist_member_id || d.stockist_package_id === null) return [];
  const active = d.stockist_active ?? false;
  const pending = active ? new Map<string, string | null>() : await pendingPaymentsAt(recorded, [d.stockist_member_id]);
  return stockistRebate({
    cause: causeOf(recorded, d.member_id),
    stockist: { id: d.stockist_member_id, active, pendingPaymentId: pending.get(d.stockist_member_id) ?? null },
    orderValueKobo: d.total_price_kobo,
    stockistPackage: { id: d.stockist_package_id, salesBonusPercentage: d.sales_bonus_percentage ?? 0 },
  });
}

/** The cause events and their deciders, for the compensation consumer's hook. */
export const stockistBonusDeciders: Record<string, (trx: Trx, recorded: RecordedEvent) => Promise<CompensationEvent[]>> = {
  StockistApproved: (trx, recorded) => signeeDecisions(pendingPaymentsIn(trx), recorded),
  StockPurchaseApproved: (trx, recorded) => stockistUplineDecisions(pendingPaymentsIn(trx), recorded),
  ProductPurchaseCollected: (trx, recorded) => stockistRebateDecisions(pendingPaymentsIn(trx), recorded),
};
