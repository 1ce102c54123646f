import type { Transaction } from 'kysely';
import { decideOnStream } from '../core/command';
import { NotFound, RuleViolation } from '../core/errors';
import type { EventMetadata } from '../core/event-store';
import type { Database } from '../database';
import { memberMessages } from '../membership/decider';
import { type PricedOrder, type RequestedLine, checkClientTotals, isPaidPickup, priceOrder, purchaseDecider, purchaseMessages } from './decider';
import { type PickupType, type PurchasePaymentMethod, purchaseStream } from './events';
import { projectPurchases } from './projections';

type Trx = Transaction<Database>;

/** A cart as the member's client sends it, totals in kobo (null when the client sent none). */
export type RequestedOrder = {
  pickupType: PickupType;
  lines: readonly RequestedLine[];
  totalPriceKobo: number | null;
  totalPoints: number | null;
  totalQuantity: number | null;
};

/**
 * Records a member's purchase, priced from the catalogue as it is now, in the caller's
 * transaction (the payment that pays it is recorded in the same one: payments/commands.ts).
 * Only a repurchase is paid for with money; registration and upgrade pick-ups come out of the
 * package's pick-up allowance (a later capability records those with method `allowance`).
 */
export async function placePaidPurchase(
  trx: Trx,
  input: { purchaseId: string; memberId: string; paymentId: string; method: Exclude<PurchasePaymentMethod, 'allowance'>; order: RequestedOrder },
  metadata: EventMetadata,
): Promise<PricedOrder> {
  if (!isPaidPickup(input.order.pickupType)) throw new RuleViolation(purchaseMessages.notPayable, 'pickup_type');
  const member = await trx.selectFrom('members').select(['id', 'activated_at', 'deactivated']).where('id', '=', input.memberId).executeTakeFirst();
  if (!member) throw new NotFound(memberMessages.unknown);
  if (!member.activated_at || member.deactivated) throw new RuleViolation(purchaseMessages.notActive);
  const ids = [...new Set(input.order.lines.map((line) => line.productId))];
  const catalogue = ids.length === 0 ? [] : await trx.selectFrom('products').select(['id', 'name', 'worth', 'points', 'is_active']).where('id', 'in', ids).execute();
  const priced = priceOrder(input.order.lines, catalogue);
  checkClientTotals(priced, input.order);
  if (priced.totalPriceKobo <= 0) throw new RuleViolation(purchaseMessages.nothingToPay, 'products');
  const { events } = await decideOnStream(trx, purchaseStream(input.purchaseId), purchaseDecider, {
    type: 'PlacePurchase',
    data: {
      purchase_id: input.purchaseId,
      member_id: member.id,
      pickup_type: input.order.pickupType,
      payment_method: input.method,
      payment_id: input.paymentId,
      total_price_kobo: priced.totalPriceKobo,
      total_points: priced.totalPoints,
      total_quantity: priced.totalQuantity,
      lines: priced.lines,
    },
  }, metadata);
  await projectPurchases(trx, events);
  return priced;
}

/** The purchase's payment was accepted (gateway, wallet or an admin's approval): ProductPurchasePaid, once. */
export async function recordPurchasePaid(trx: Trx, purchaseId: string, method: PurchasePaymentMethod, metadata: EventMetadata): Promise<void> {
  const { events } = await decideOnStream(trx, purchaseStream(purchaseId), purchaseDecider, { type: 'RecordPayment', data: { purchase_id: purchaseId, payment_method: method } }, metadata);
  await projectPurchases(trx, events);
}

/** An admin declined the purchase's payment: the purchase will not be paid. */
export async function recordPurchaseDeclined(trx: Trx, purchaseId: string, paymentId: string, reason: string, metadata: EventMetadata): Promise<void> {
  const { events } = await decideOnStream(trx, purchaseStream(purchaseId), purchaseDecider, { type: 'RecordPaymentDeclined', data: { purchase_id: purchaseId, payment_id: paymentId, reason } }, metadata);
  await projectPurchases(trx, events);
}
