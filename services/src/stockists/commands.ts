import { randomUUID } from 'node:crypto';
import { type Transaction, sql } from 'kysely';
import { type CommandContext, decideOnStream, foldEvents, runInTransaction } from '../core/command';
import type { Executor } from '../core/db';
import { Forbidden, NotFound, RuleViolation } from '../core/errors';
import { type EventMetadata, readStream } from '../core/event-store';
import { releaseKeysOwnedBy, reserveKey } from '../core/unique-keys';
import type { Database } from '../database';
import { findMemberByLogin } from '../membership/queries';
import { type RequestedLine, checkClientTotals, priceOrder, purchaseDecider, purchaseMessages } from '../purchases/decider';
import { purchaseStream } from '../purchases/events';
import { projectPurchases } from '../purchases/projections';
import { getSettings } from '../settings/projections';
import { bonusPercentagesByPackage } from '../settings/queries';
import { lagosMonthStart } from './months';
import { normaliseState, stockDecider, stockPurchaseDecider, stockistDecider, stockistMessages } from './decider';
import {
  type StockPickupType,
  type StockistApproved,
  type StockistPackageFacts,
  type StockistUpgradeApproved,
  type UplineFacts,
  stockPurchaseStream,
  stockStream,
  stockistStream,
} from './events';
import { projectStockists } from './projections';

type Trx = Transaction<Database>;
export type StoreFields = { store_name: string; store_address: string; store_state: string; store_phone: string };

const activeNow = sql<boolean>`(m.activated_at is not null and not m.deactivated)`;

async function activeMember(db: Executor, memberId: string): Promise<boolean> {
  const row = await db.selectFrom('members as m').select(activeNow.as('active')).where('m.id', '=', memberId).executeTakeFirst();
  return row?.active ?? false;
}

async function packageFacts(db: Executor, id: number): Promise<StockistPackageFacts | null> {
  const row = await db.selectFrom('stockist_packages').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return { id: row.id, name: row.name, registration_value_kobo: Number(row.registration_value), sales_bonus_percentage: Number(row.sales_bonus_percentage), pickup_amount_kobo: Number(row.pickup_amount) };
}

function storeFields(fields: StoreFields): StoreFields {
  const state = normaliseState(fields.store_state);
  if (!state) throw new RuleViolation(stockistMessages.stateInvalid, 'store_state');
  return { store_name: fields.store_name.trim(), store_address: fields.store_address.trim(), store_state: state, store_phone: fields.store_phone.trim() };
}

/** The member's approved stockist account (the one the stockist portal acts for). */
export async function approvedStockistOf(db: Executor, memberId: string) {
  return db.selectFrom('stockists').selectAll().where('member_id', '=', memberId).where('status', '=', 'approved').executeTakeFirst();
}

/** A stockist application (BUSINESS-RULES.md §5): store details, package, signee and the receipt of its payment → pending. */
export async function applyForStockist(
  ctx: CommandContext,
  input: { memberId: string; store: StoreFields; packageId: number; signee: string; receiptPath: string | null },
  metadata: EventMetadata,
): Promise<string> {
  const stockistId = randomUUID();
  const paymentId = randomUUID();
  return runInTransaction(ctx, async (trx) => {
    if (!(await activeMember(trx, input.memberId))) throw new RuleViolation(stockistMessages.notActive);
    const existing = await trx.selectFrom('stockists').select('status').where('member_id', '=', input.memberId).where('status', 'in', ['pending', 'approved']).executeTakeFirst();
    if (existing) throw new RuleViolation(existing.status === 'approved' ? stockistMessages.alreadyStockist : stockistMessages.applicationPending);
    const store = storeFields(input.store);
    const pkg = await packageFacts(trx, input.packageId);
    if (!pkg) throw new RuleViolation(stockistMessages.packageInvalid, 'package_id');
    const signee = await findMemberByLogin(trx, input.signee);
    if (!signee) throw new RuleViolation(stockistMessages.signeeUnknown, 'referrer');
    if (signee.id === input.memberId) throw new RuleViolation(stockistMessages.signeeSelf, 'referrer');
    const { events } = await decideOnStream(trx, stockistStream(stockistId), stockistDecider, {
      type: 'Apply',
      data: { stockist_id: stockistId, member_id: input.memberId, ...store, package_id: pkg.id, signee_id: signee.id, payment_id: paymentId, amount_kobo: pkg.registration_value_kobo, receipt_path: input.receiptPath },
    }, metadata);
    // One application at a time per member: a racing second application loses here and rolls back.
    if (!(await reserveKey(trx, 'stockist-member', input.memberId, stockistId))) throw new RuleViolation(stockistMessages.applicationPending);
    await projectStockists(trx, events);
    return stockistId;
  });
}

/** Finds a stockist by its id, or by the id of one of its payments (the admin screens send the payment id). */
async function stockistByIdOrPayment(db: Executor, id: string) {
  const byId = await db.selectFrom('stockists').selectAll().where('id', '=', id).executeTakeFirst();
  if (byId) return { stockist: byId, paymentId: null as string | null };
  const payment = await db.selectFrom('stockist_payments').select(['id', 'stockist_id']).where('id', '=', id).executeTakeFirst();
  if (!payment) return null;
  const stockist = await db.selectFrom('stockists').selectAll().where('id', '=', payment.stockist_id).executeTakeFirstOrThrow();
  return { stockist, paymentId: payment.id };
}

/** An admin approves (member becomes a stockist, the signee bonus follows) or disapproves an application. */
export async function decideApplication(ctx: CommandContext, id: string, decision: { type: 'approve' } | { type: 'disapprove'; reason: string }, metadata: EventMetadata): Promise<string> {
  return runInTransaction(ctx, async (trx) => {
    const found = await stockistByIdOrPayment(trx, id);
    if (!found) throw new NotFound(stockistMessages.unknown);
    const { stockist } = found;
    if (decision.type === 'disapprove') {
      const { events } = await decideOnStream(trx, stockistStream(stockist.id), stockistDecider, { type: 'Disapprove', data: { reason: decision.reason } }, metadata);
      await releaseKeysOwnedBy(trx, ['stockist-member'], stockist.id);
      await projectStockists(trx, events);
      return stockist.id;
    }
    const pkg = await packageFacts(trx, stockist.package_id);
    if (!pkg) throw new RuleViolation(stockistMessages.packageInvalid);
    // The package's price is the one the applicant was asked to pay.
    const stockistPackage = { ...pkg, registration_value_kobo: Number(stockist.registration_value) };
    const settings = await getSettings(trx);
    const { events } = await decideOnStream(trx, stockistStream(stockist.id), stockistDecider, {
      type: 'Approve',
      data: { stockist_id: stockist.id, signee_active: await activeMember(trx, stockist.signee_id), stockist_package: stockistPackage, stockist_referral_bonus_percentage: settings.stockist_referral_bonus_percentage },
    }, metadata);
    await projectStockists(trx, events);
    return stockist.id;
  });
}

/** The stockist updates its store profile (its own only). */
export async function updateStore(ctx: CommandContext, input: { stockistRef: string; memberId: string; store: StoreFields }, metadata: EventMetadata): Promise<string> {
  return runInTransaction(ctx, async (trx) => {
    const stockist = await ownStockist(trx, input.stockistRef, input.memberId);
    const { events } = await decideOnStream(trx, stockistStream(stockist.id), stockistDecider, { type: 'UpdateProfile', data: storeFields(input.store) }, metadata);
    await projectStockists(trx, events);
    return stockist.id;
  });
}

/** The member's own stockist account, named by its id or the member's uuid. */
export async function ownStockist(db: Executor, ref: string, memberId: string) {
  const stockist = await db
    .selectFrom('stockists')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', ref), eb('member_id', '=', ref)]))
    .where('status', '!=', 'disapproved')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!stockist) throw new NotFound(stockistMessages.unknown);
  if (stockist.member_id !== memberId) throw new Forbidden(stockistMessages.notYours);
  return stockist;
}

/** A stockist package upgrade by receipt: the difference of registration values → processing. */
export async function requestUpgrade(ctx: CommandContext, input: { stockistRef: string; memberId: string; toPackageId: number; receiptPath: string | null }, metadata: EventMetadata): Promise<{ paymentId: string; amountKobo: number }> {
  const paymentId = randomUUID();
  return runInTransaction(ctx, async (trx) => {
    const stockist = await ownStockist(trx, input.stockistRef, input.memberId);
    if (stockist.status !== 'approved') throw new RuleViolation(stockistMessages.notAStockist);
    const [from, to] = await Promise.all([packageFacts(trx, stockist.package_id), packageFacts(trx, input.toPackageId)]);
    if (!from || !to) throw new RuleViolation(stockistMessages.packageInvalid, 'stockist_package_id');
    if (to.id <= from.id || to.registration_value_kobo <= from.registration_value_kobo) throw new RuleViolation(stockistMessages.upgradeNotHigher, 'stockist_package_id');
    const amountKobo = to.registration_value_kobo - from.registration_value_kobo;
    const { events } = await decideOnStream(trx, stockistStream(stockist.id), stockistDecider, {
      type: 'RequestUpgrade',
      data: { stockist_id: stockist.id, member_id: stockist.member_id, payment_id: paymentId, from_package_id: from.id, to_package_id: to.id, amount_kobo: amountKobo, receipt_path: input.receiptPath },
    }, metadata);
    await projectStockists(trx, events);
    return { paymentId, amountKobo };
  });
}

/** An admin approves or disapproves a stockist upgrade (by its payment id, or the stockist's id for its pending one). */
export async function decideUpgrade(ctx: CommandContext, id: string, decision: { type: 'approve' } | { type: 'disapprove'; reason: string }, metadata: EventMetadata): Promise<string> {
  return runInTransaction(ctx, async (trx) => {
    const found = await stockistByIdOrPayment(trx, id);
    if (!found) throw new NotFound(stockistMessages.unknown);
    const paymentId = found.paymentId
      ?? (await trx.selectFrom('stockist_payments').select('id').where('stockist_id', '=', found.stockist.id).where('kind', '=', 'upgrade').where('status', '=', 'processing').executeTakeFirst())?.id;
    if (!paymentId) throw new RuleViolation(stockistMessages.noPendingUpgrade);
    const payment = await trx.selectFrom('stockist_payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow();
    if (payment.kind !== 'upgrade') throw new RuleViolation(stockistMessages.noPendingUpgrade);
    if (decision.type === 'disapprove') {
      const { events } = await decideOnStream(trx, stockistStream(found.stockist.id), stockistDecider, { type: 'DisapproveUpgrade', data: { payment_id: paymentId, reason: decision.reason } }, metadata);
      await projectStockists(trx, events);
      return paymentId;
    }
    const [from, to] = await Promise.all([packageFacts(trx, payment.from_package_id ?? 0), packageFacts(trx, payment.package_id)]);
    if (!from || !to) throw new RuleViolation(stockistMessages.packageInvalid);
    const { events } = await decideOnStream(trx, stockistStream(found.stockist.id), stockistDecider, { type: 'ApproveUpgrade', data: { payment_id: paymentId, from_package: from, to_package: to } }, metadata);
    await projectStockists(trx, events);
    return paymentId;
  });
}

// ---- stock purchases -------------------------------------------------------------------------

/** What an approved stockist may buy with a pick-up type now, and the once-only key it uses. */
export async function stockAllowance(db: Executor, stockist: { id: string; member_id: string }, pickupType: StockPickupType, now: Date): Promise<{ allowanceKobo: number; scope: string | null; key: string | null; used: boolean }> {
  const events = await readStream(db, stockistStream(stockist.id));
  const keyUsed = async (scope: string, key: string) => (await sql<{ n: number }>`select count(*)::int as n from unique_keys where scope = ${scope} and key = ${key}`.execute(db)).rows[0]!.n > 0;
  if (pickupType === 'registration_pickup') {
    const approved = events.find((e) => e.type === 'StockistApproved') as StockistApproved | undefined;
    return { allowanceKobo: approved?.data.stockist_package.pickup_amount_kobo ?? 0, scope: 'stock-registration-pickup', key: stockist.id, used: await keyUsed('stock-registration-pickup', stockist.id) };
  }
  if (pickupType === 'upgrade_pickup') {
    const upgrade = [...events].reverse().find((e) => e.type === 'StockistUpgradeApproved') as StockistUpgradeApproved | undefined;
    if (!upgrade) throw new RuleViolation(stockistMessages.noUpgradePickup, 'pickup_type');
    const key = `${stockist.id}:${upgrade.data.payment_id}`;
    return { allowanceKobo: upgrade.data.pickup_allowance_kobo, scope: 'stock-upgrade-pickup', key, used: await keyUsed('stock-upgrade-pickup', key) };
  }
  const sales = await previousMonthSales(db, stockist.id, now);
  return { allowanceKobo: Math.max(0, sales.salesKobo - sales.restockedKobo), scope: null, key: null, used: false };
}

/**
 * Whether a stockist's once-only stock pick-ups are taken (GET /product-purchases/stockist/{id}/pickup-status),
 * from stockAllowance, which placeStockPurchase refuses by: the upgrade pick-up is null before any approved upgrade.
 */
export async function stockPickupStatus(db: Executor, stockist: { id: string; member_id: string }, now: Date): Promise<{ registration_pickup_used: boolean; upgrade_pickup_used: boolean | null }> {
  const registration = await stockAllowance(db, stockist, 'registration_pickup', now);
  let upgradeUsed: boolean | null = null;
  try {
    upgradeUsed = (await stockAllowance(db, stockist, 'upgrade_pickup', now)).used;
  } catch (error) {
    if (!(error instanceof RuleViolation)) throw error;
  }
  return { registration_pickup_used: registration.used, upgrade_pickup_used: upgradeUsed };
}

/** The value of the orders a stockist handed over in the previous Lagos calendar month, and what it re-stocked against it this month. */
export async function previousMonthSales(db: Executor, stockistId: string, now: Date): Promise<{ salesKobo: number; restockedKobo: number; month: string }> {
  const thisMonth = lagosMonthStart(now, 0);
  const lastMonth = lagosMonthStart(now, -1);
  const sales = await db
    .selectFrom('product_purchases')
    .select(sql<string>`coalesce(sum(total_price), 0)`.as('kobo'))
    .where('stockist_id', '=', stockistId)
    .where('collected_at', '>=', lastMonth.start)
    .where('collected_at', '<', thisMonth.start)
    .executeTakeFirstOrThrow();
  const restocked = await db
    .selectFrom('stock_purchases')
    .select(sql<string>`coalesce(sum(total_price), 0)`.as('kobo'))
    .where('stockist_id', '=', stockistId)
    .where('pickup_type', '=', 're-stock')
    // An unpaid card checkout holds nothing: it counts once its payment arrives.
    .where('status', 'in', ['processing', 'approved'])
    .where('created_at', '>=', thisMonth.start)
    .executeTakeFirstOrThrow();
  return { salesKobo: Number(sales.kobo), restockedKobo: Number(restocked.kobo), month: lastMonth.month };
}

type StockPurchaseInput = {
  memberId: string;
  pickupType: StockPickupType;
  lines: readonly RequestedLine[];
  totals: { totalPriceKobo: number | null; totalPoints: number | null; totalQuantity: number | null };
  receiptPath: string | null;
  now: Date;
  /** Paid by card: the payment opened with it (a re-stock only); the purchase waits for it. */
  paymentId?: string;
};

/** A stock purchase (BUSINESS-RULES.md §5): priced from the catalogue, within its allowance, once for the pick-up allowances → processing. */
export async function requestStockPurchase(ctx: CommandContext, input: StockPurchaseInput, metadata: EventMetadata): Promise<string> {
  return runInTransaction(ctx, async (trx) => (await placeStockPurchase(trx, input, metadata)).purchaseId);
}

/**
 * Records a stock purchase inside the caller's transaction (the card payment opens its payment in
 * the same one). A card purchase is a re-stock: the pick-ups are paid with the stockist package.
 */
export async function placeStockPurchase(trx: Transaction<Database>, input: StockPurchaseInput, metadata: EventMetadata): Promise<{ purchaseId: string; stockistId: string; totalPriceKobo: number }> {
  const purchaseId = randomUUID();
  const stockist = await approvedStockistOf(trx, input.memberId);
  if (!stockist) throw new Forbidden(stockistMessages.notAStockist);
  if (input.paymentId && input.pickupType !== 're-stock') throw new RuleViolation(stockistMessages.cardForRestockOnly, 'pickup_type');
  // Re-stocks of one stockist are decided one at a time (their allowance is a running total).
  await sql`select pg_advisory_xact_lock(hashtextextended(${`restock:${stockist.id}`}, 0))`.execute(trx);
  const ids = [...new Set(input.lines.map((line) => line.productId))];
  const catalogue = ids.length === 0 ? [] : await trx.selectFrom('products').select(['id', 'name', 'worth', 'points', 'is_active']).where('id', 'in', ids).execute();
  const priced = priceOrder(input.lines, catalogue);
  checkClientTotals(priced, input.totals);
  const allowance = await stockAllowance(trx, stockist, input.pickupType, input.now);
  if (allowance.used) throw new RuleViolation(input.pickupType === 'registration_pickup' ? stockistMessages.registrationPickupUsed : stockistMessages.upgradePickupUsed, 'pickup_type');
  if (input.pickupType === 're-stock' && allowance.allowanceKobo === 0) throw new RuleViolation(stockistMessages.noSalesLastMonth, 'pickup_type');
  const { events } = await decideOnStream(trx, stockPurchaseStream(purchaseId), stockPurchaseDecider, {
    type: 'Request',
    data: {
      purchase_id: purchaseId,
      stockist_id: stockist.id,
      member_id: stockist.member_id,
      pickup_type: input.pickupType,
      package_id: stockist.package_id,
      allowance_key: allowance.key,
      allowance_kobo: allowance.allowanceKobo,
      total_price_kobo: priced.totalPriceKobo,
      total_points: priced.totalPoints,
      total_quantity: priced.totalQuantity,
      lines: priced.lines,
      receipt_path: input.receiptPath,
      ...(input.paymentId ? { payment_id: input.paymentId } : {}),
    },
  }, metadata);
  if (allowance.scope && allowance.key && !(await reserveKey(trx, allowance.scope, allowance.key, purchaseId))) {
    throw new RuleViolation(input.pickupType === 'registration_pickup' ? stockistMessages.registrationPickupUsed : stockistMessages.upgradePickupUsed, 'pickup_type');
  }
  await projectStockists(trx, events);
  return { purchaseId, stockistId: stockist.id, totalPriceKobo: priced.totalPriceKobo };
}

/**
 * The card payment of a re-stock succeeded (payments/commands.ts applyPayment): the purchase goes
 * to the admins (BUSINESS-RULES.md §5: stock is added only when an admin approves). The re-stock
 * allowance is checked again now, as other re-stocks may have used it while the member was at the
 * provider; when it no longer fits, the refusal marks the payment not applied (flagged to admins).
 * Replays (verify and webhook, again and again) record nothing more.
 */
export async function recordStockPurchasePaid(trx: Transaction<Database>, input: { purchaseId: string; paymentId: string; now: Date }, metadata: EventMetadata): Promise<void> {
  const row = await trx.selectFrom('stock_purchases').select(['stockist_id', 'member_id', 'status', 'total_price']).where('id', '=', input.purchaseId).executeTakeFirst();
  if (!row) throw new RuleViolation(stockistMessages.stockPurchaseUnknown);
  await sql`select pg_advisory_xact_lock(hashtextextended(${`restock:${row.stockist_id}`}, 0))`.execute(trx);
  if (row.status === 'awaiting_payment') {
    const sales = await previousMonthSales(trx, row.stockist_id, input.now);
    if (sales.restockedKobo + Number(row.total_price) > sales.salesKobo) throw new RuleViolation(stockistMessages.restockOverAllowance);
  }
  const { events } = await decideOnStream(trx, stockPurchaseStream(input.purchaseId), stockPurchaseDecider, { type: 'RecordPaid', data: { payment_id: input.paymentId } }, metadata);
  await projectStockists(trx, events);
}

/** A card payment of a stock purchase was declined by an admin: the purchase is declined with it. */
export async function declineUnpaidStockPurchase(trx: Transaction<Database>, purchaseId: string, reason: string, metadata: EventMetadata): Promise<void> {
  const state = foldEvents(stockPurchaseDecider, await readStream(trx, stockPurchaseStream(purchaseId)));
  if (state.status !== 'awaiting_payment') return;
  const { events } = await decideOnStream(trx, stockPurchaseStream(purchaseId), stockPurchaseDecider, { type: 'Decline', data: { reason } }, metadata);
  await projectStockists(trx, events);
}

/** The sponsor chain of a member now, generation 1 (the sponsor) to 10, with each one's activity and package. */
async function sponsorChainNow(db: Executor, memberId: string): Promise<UplineFacts[]> {
  const { rows } = await sql<{ id: string; active: boolean; package_id: number }>`
    with recursive chain(id, generation) as (
      select sponsor_id, 1 from members where id = ${memberId} and sponsor_id is not null
      union all
      select m.sponsor_id, chain.generation + 1 from members m join chain on m.id = chain.id
      where chain.generation < 10 and m.sponsor_id is not null
    )
    select m.id, (m.activated_at is not null and not m.deactivated) as active, m.package_id
    from chain join members m on m.id = chain.id order by chain.generation`.execute(db);
  return rows.map((r) => ({ member_id: r.id, active: r.active, package_id: r.package_id }));
}

/** An admin approves (stock added; the stockist upline bonus follows) or declines (allowance given back) a stock purchase. */
export async function decideStockPurchase(ctx: CommandContext, purchaseId: string, decision: { type: 'approve' } | { type: 'decline'; reason: string }, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const row = await trx.selectFrom('stock_purchases').select(['id', 'member_id', 'stockist_id']).where('id', '=', purchaseId).executeTakeFirst();
    if (!row) throw new NotFound(stockistMessages.stockPurchaseUnknown);
    if (decision.type === 'decline') {
      const { events } = await decideOnStream(trx, stockPurchaseStream(purchaseId), stockPurchaseDecider, { type: 'Decline', data: { reason: decision.reason } }, metadata);
      await releaseKeysOwnedBy(trx, ['stock-registration-pickup', 'stock-upgrade-pickup'], purchaseId);
      await projectStockists(trx, events);
      return;
    }
    const chain = await sponsorChainNow(trx, row.member_id);
    const tables = await bonusPercentagesByPackage(trx, 'stockist-upline');
    const usedTables = Object.fromEntries(chain.map((u) => [String(u.package_id), tables[u.package_id] ?? []]));
    const { events } = await decideOnStream(trx, stockPurchaseStream(purchaseId), stockPurchaseDecider, { type: 'Approve', data: { sponsor_chain: chain, stockist_upline_tables: usedTables } }, metadata);
    const approved = events.find((e) => e.type === 'StockPurchaseApproved');
    const caused = { ...metadata, causation_id: approved?.eventId ?? null };
    const lines = approved && approved.type === 'StockPurchaseApproved' ? approved.data.lines.map((l) => ({ product_id: l.product_id, qty: l.qty })) : [];
    const stock = await decideOnStream(trx, stockStream(row.stockist_id), stockDecider, { type: 'Add', data: { stockist_id: row.stockist_id, stock_purchase_id: purchaseId, lines } }, caused);
    await projectStockists(trx, [...events, ...stock.events]);
  });
}

// ---- collecting an order ---------------------------------------------------------------------

/** A stockist's stock now, folded from its stream (what approvals decide on). */
export async function currentStock(db: Executor, stockistId: string): Promise<ReadonlyMap<number, number>> {
  return foldEvents(stockDecider, await readStream(db, stockStream(stockistId)));
}

/**
 * A stockist approves an order it hands over (BUSINESS-RULES.md §5): the order is collected once
 * (its stream's version lets only one approval in, whoever races), and its quantities come off the
 * stockist's stock (decided on the stock stream, which never goes below zero). The rebate follows
 * from ProductPurchaseCollected, which carries the stockist's package and percentage now.
 */
export async function collectOrder(ctx: CommandContext, input: { purchaseId: string; stockistMemberId: string }, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const stockist = await approvedStockistOf(trx, input.stockistMemberId);
    if (!stockist) throw new Forbidden(stockistMessages.notAStockist);
    const order = await trx.selectFrom('product_purchases').select(['id']).where('id', '=', input.purchaseId).executeTakeFirst();
    if (!order) throw new NotFound(purchaseMessages.unknown);
    const pkg = await packageFacts(trx, stockist.package_id);
    if (!pkg) throw new RuleViolation(stockistMessages.packageInvalid);
    const { events } = await decideOnStream(trx, purchaseStream(input.purchaseId), purchaseDecider, {
      type: 'Collect',
      data: {
        by: 'stockist',
        stockist_id: stockist.id,
        stockist_member_id: stockist.member_id,
        stockist_package_id: pkg.id,
        sales_bonus_percentage: pkg.sales_bonus_percentage,
        stockist_active: await activeMember(trx, stockist.member_id),
      },
    }, metadata);
    const collected = events.find((e) => e.type === 'ProductPurchaseCollected');
    if (!collected || collected.type !== 'ProductPurchaseCollected') return;
    const lines = collected.data.lines.map((l) => ({ product_id: l.product_id, qty: l.qty }));
    const stock = await decideOnStream(trx, stockStream(stockist.id), stockDecider, { type: 'Take', data: { stockist_id: stockist.id, purchase_id: input.purchaseId, lines } }, { ...metadata, causation_id: collected.eventId });
    await projectPurchases(trx, events);
    await projectStockists(trx, stock.events);
  });
}
