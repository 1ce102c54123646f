import { randomInt } from 'node:crypto';
import { type Transaction, sql } from 'kysely';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import { readStream } from '../core/event-store';
import { releaseKeysOwnedBy, reserveKey } from '../core/unique-keys';
import type { MemberActivated, MemberPackageUpgraded } from '../membership/events';
import { memberStream } from '../membership/events';
import { NotFound, RuleViolation } from '../core/errors';
import type { EventMetadata } from '../core/event-store';
import type { Database } from '../database';
import { memberMessages } from '../membership/decider';
import { type PricedOrder, type RequestedLine, checkClientTotals, isPaidPickup, priceOrder, purchaseDecider, purchaseMessages } from './decider';
import { type PickupType, type PurchasePaymentMethod, purchaseStream } from './events';
import { randomUUID as randomUUIDv4 } from 'node:crypto';
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
  const orderCode = await claimOrderCode(trx, input.purchaseId);
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
      order_code: orderCode,
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

/** Order codes: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L). */
export const ORDER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ORDER_CODE_LENGTH = 8;

export function randomOrderCode(): string {
  return Array.from({ length: ORDER_CODE_LENGTH }, () => ORDER_CODE_ALPHABET[randomInt(ORDER_CODE_ALPHABET.length)]).join('');
}

/** A random order code no other order has (claimed in unique_keys in the caller's transaction). */
export async function claimOrderCode(trx: Trx, purchaseId: string): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const code = randomOrderCode();
    if (await reserveKey(trx, 'order-code', code, purchaseId)) return code;
  }
  throw new Error('could not find a free order code');
}

/** What a member may still pick up with a pick-up type: the allowance and the once-only key it uses. */
export async function allowanceFor(trx: Trx | import('../core/db').Executor, memberId: string, pickupType: Exclude<PickupType, 'repurchase_pickup'>): Promise<{ allowanceKobo: number; scope: string; key: string; used: boolean }> {
  const events = await readStream(trx, memberStream(memberId));
  const registrationUsed = (await sql<{ n: number }>`select count(*)::int as n from unique_keys where scope = 'registration-pickup' and key = ${memberId}`.execute(trx)).rows[0]!.n > 0;
  if (pickupType === 'registration_pickup') {
    const activated = [...events].reverse().find((e) => e.type === 'MemberActivated') as MemberActivated | undefined;
    let allowance = activated?.data.pickup_allowance_kobo;
    if (allowance === undefined && activated) {
      const pkg = await trx.selectFrom('packages').select('pickup_amount').where('id', '=', activated.data.package_id).executeTakeFirst();
      allowance = pkg?.pickup_amount ?? 0;
    }
    return { allowanceKobo: allowance ?? 0, scope: 'registration-pickup', key: memberId, used: registrationUsed };
  }
  if (!registrationUsed) throw new RuleViolation(purchaseMessages.registrationPickupFirst, 'pickup_type');
  const upgrade = ([...events].reverse().find((e) => e.type === 'MemberPackageUpgraded') ?? null) as (MemberPackageUpgraded & { eventId?: string; streamPosition?: number }) | null;
  if (!upgrade) throw new RuleViolation(purchaseMessages.noUpgradePickup, 'pickup_type');
  const key = `${memberId}:${upgrade.data.payment_id}`;
  const used = (await sql<{ n: number }>`select count(*)::int as n from unique_keys where scope = 'upgrade-pickup' and key = ${key}`.execute(trx)).rows[0]!.n > 0;
  return { allowanceKobo: upgrade.data.pickup_allowance_kobo, scope: 'upgrade-pickup', key, used };
}

/**
 * Whether the member's once-only pick-ups are taken (GET /product-purchases/user/{id}/pickup-status),
 * from allowanceFor, which placeAllowancePurchase refuses by: the upgrade pick-up is null while
 * allowanceFor would refuse it for another reason (no upgrade yet, registration pick-up first).
 */
export async function pickupStatusOf(db: import('../core/db').Executor, memberId: string): Promise<{ registration_pickup_used: boolean; upgrade_pickup_used: boolean | null }> {
  const registration = await allowanceFor(db, memberId, 'registration_pickup');
  let upgradeUsed: boolean | null = null;
  try {
    upgradeUsed = (await allowanceFor(db, memberId, 'upgrade_pickup')).used;
  } catch (error) {
    if (!(error instanceof RuleViolation)) throw error;
  }
  return { registration_pickup_used: registration.used, upgrade_pickup_used: upgradeUsed };
}

/**
 * A registration or upgrade pick-up (BUSINESS-RULES.md §5): priced from the catalogue, within the
 * allowance, once (the allowance's key is taken with the order and given back if an admin declines
 * it), and covered at once: the order waits to be collected at a stockist with its code.
 */
export async function placeAllowancePurchase(ctx: CommandContext, input: { memberId: string; order: RequestedOrder }, metadata: EventMetadata): Promise<{ purchaseId: string; priced: PricedOrder }> {
  const purchaseId = randomUUIDv4();
  return runInTransaction(ctx, async (trx) => {
    const pickupType = input.order.pickupType;
    if (pickupType === 'repurchase_pickup') throw new RuleViolation(purchaseMessages.repurchaseIsPaid, 'pickup_type');
    const member = await trx.selectFrom('members').select(['id', 'activated_at', 'deactivated']).where('id', '=', input.memberId).executeTakeFirst();
    if (!member) throw new NotFound(memberMessages.unknown);
    if (!member.activated_at || member.deactivated) throw new RuleViolation(purchaseMessages.notActive);
    const ids = [...new Set(input.order.lines.map((line) => line.productId))];
    const catalogue = ids.length === 0 ? [] : await trx.selectFrom('products').select(['id', 'name', 'worth', 'points', 'is_active']).where('id', 'in', ids).execute();
    const priced = priceOrder(input.order.lines, catalogue);
    checkClientTotals(priced, input.order);
    const allowance = await allowanceFor(trx, member.id, pickupType);
    if (allowance.used) throw new RuleViolation(pickupType === 'registration_pickup' ? purchaseMessages.registrationPickupUsed : purchaseMessages.upgradePickupUsed, 'pickup_type');
    if (priced.totalPriceKobo > allowance.allowanceKobo) throw new RuleViolation(purchaseMessages.pickupAboveAllowance, 'products');
    const orderCode = await claimOrderCode(trx, purchaseId);
    const { events } = await decideOnStream(trx, purchaseStream(purchaseId), purchaseDecider, {
      type: 'PlaceAllowancePurchase',
      data: {
        purchase_id: purchaseId,
        member_id: member.id,
        pickup_type: pickupType,
        payment_method: 'allowance',
        payment_id: null,
        total_price_kobo: priced.totalPriceKobo,
        total_points: priced.totalPoints,
        total_quantity: priced.totalQuantity,
        lines: priced.lines,
        order_code: orderCode,
      },
    }, metadata);
    // Taken after the append: a concurrent order for the same allowance loses here and rolls back.
    if (!(await reserveKey(trx, allowance.scope, allowance.key, purchaseId))) {
      throw new RuleViolation(pickupType === 'registration_pickup' ? purchaseMessages.registrationPickupUsed : purchaseMessages.upgradePickupUsed, 'pickup_type');
    }
    await projectPurchases(trx, events);
    return { purchaseId, priced };
  });
}

/** An admin declines a product claim (an allowance order not collected): the allowance's key is given back. */
export async function declineClaim(ctx: CommandContext, purchaseId: string, reason: string, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const row = await trx.selectFrom('product_purchases').select('id').where('id', '=', purchaseId).executeTakeFirst();
    if (!row) throw new NotFound(purchaseMessages.unknown);
    const { events } = await decideOnStream(trx, purchaseStream(purchaseId), purchaseDecider, { type: 'DeclineClaim', data: { reason } }, metadata);
    await releaseKeysOwnedBy(trx, ['registration-pickup', 'upgrade-pickup'], purchaseId);
    await projectPurchases(trx, events);
  });
}

/** An admin hands an order over at the head office (a product claim approved): collected, no stockist, no rebate. */
export async function approveClaim(ctx: CommandContext, purchaseId: string, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const row = await trx.selectFrom('product_purchases').select('id').where('id', '=', purchaseId).executeTakeFirst();
    if (!row) throw new NotFound(purchaseMessages.unknown);
    const { events } = await decideOnStream(trx, purchaseStream(purchaseId), purchaseDecider, {
      type: 'Collect',
      data: { by: 'admin', stockist_id: null, stockist_member_id: null, stockist_package_id: null, sales_bonus_percentage: null, stockist_active: null },
    }, metadata);
    await projectPurchases(trx, events);
  });
}
