import { type Transaction, sql } from 'kysely';
import type { BonusCredited } from '../compensation/events';
import { publicUrlOf } from '../core/config';
import type { Consumer } from '../core/consumers';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import type { IncentiveClaimApproved, IncentiveClaimDeclined } from '../incentives/events';
import type { MemberActivated, MemberPackageUpgraded } from '../membership/events';
import type { PackagePaymentApproved, PackagePaymentDeclined } from '../payments/events';
import type { ProductPurchaseCollected } from '../purchases/events';
import type { StockPurchaseApproved, StockPurchaseDeclined, StockistApproved, StockistDisapproved, StockistUpgradeApproved, StockistUpgradeDisapproved } from '../stockists/events';
import type { WithdrawalFailed, WithdrawalRequested, WithdrawalSent, WithdrawalSucceeded } from '../wallet/events';
import { type Decision, decisionMail } from './decision-mails';
import { enqueueMail } from './outbox';

/**
 * The notifications policy (docs/notifications.md): follows the log and, for each decision about
 * a member's money, writes one mail to the outbox in the batch's transaction, keyed by the event
 * (`decision:<event id>`), so a re-run, a replay or a reset checkpoint never mails twice. The
 * member's address and name, and the figures the event does not carry, come from the inline read
 * tables, which were written in the deciding command's own transaction.
 *
 * Decisions older than MAX_AGE_DAYS when the policy reads them are not mailed: news that old is
 * noise (a checkpoint moved back, a restored backup). A first deployment starts the policy at the
 * log's end (migration 2026_11_26_mails_00), so the history is never mailed.
 */
export const NOTIFICATIONS_POLICY = 'member-notifications';
export const MAX_AGE_DAYS = 3;

type Trx = Transaction<Database>;
type Notice = { memberId: string; decision: Decision; key: string };
type Loader = (trx: Trx, event: RecordedEvent) => Promise<Notice | null>;

const byEvent = (event: RecordedEvent) => `decision:${event.eventId}`;

const loaders: Record<string, Loader> = {
  async MemberActivated(trx, recorded) {
    const event = recorded as RecordedEvent<MemberActivated>;
    const d = event.data;
    // The seeded company root is activated without a payment: nobody to tell.
    if (!d.payment_id) return null;
    const payment = await trx.selectFrom('package_payments').select(['method', 'amount_due', 'amount_paid']).where('id', '=', d.payment_id).executeTakeFirst();
    const pkg = await trx.selectFrom('packages').select('name').where('id', '=', d.package_id).executeTakeFirst();
    if (!payment || !pkg) return null;
    return {
      memberId: d.member_id,
      key: byEvent(event),
      decision: { kind: 'activated', packageName: pkg.name, amountKobo: d.registration_value_kobo ?? payment.amount_paid ?? payment.amount_due, method: payment.method },
    };
  },

  async MemberPackageUpgraded(trx, recorded) {
    const d = (recorded as RecordedEvent<MemberPackageUpgraded>).data;
    const payment = await trx.selectFrom('package_payments').select('method').where('id', '=', d.payment_id).executeTakeFirst();
    const names = new Map((await trx.selectFrom('packages').select(['id', 'name']).where('id', 'in', [d.from_package_id, d.to_package_id]).execute()).map((p) => [p.id, p.name]));
    if (!payment) return null;
    return {
      memberId: d.member_id,
      key: byEvent(recorded),
      decision: { kind: 'upgrade-approved', fromPackage: names.get(d.from_package_id) ?? `package ${d.from_package_id}`, toPackage: names.get(d.to_package_id) ?? `package ${d.to_package_id}`, amountKobo: d.difference_kobo, method: payment.method },
    };
  },

  // A registration or upgrade approved is told by the activation or upgrade it causes (one mail per
  // decision the member lives); an order's payment approved is told here.
  async PackagePaymentApproved(trx, recorded) {
    const d = (recorded as RecordedEvent<PackagePaymentApproved>).data;
    const payment = await trx.selectFrom('package_payments').select(['member_id', 'purpose', 'amount_due', 'amount_paid']).where('id', '=', d.payment_id).executeTakeFirst();
    if (!payment || payment.purpose !== 'product_purchase') return null;
    const purchase = await trx.selectFrom('product_purchases').select('order_code').where('payment_id', '=', d.payment_id).executeTakeFirst();
    return {
      memberId: payment.member_id,
      key: byEvent(recorded),
      decision: { kind: 'order-payment-approved', amountKobo: payment.amount_paid ?? payment.amount_due, orderCode: purchase?.order_code ?? null },
    };
  },

  async PackagePaymentDeclined(trx, recorded) {
    const d = (recorded as RecordedEvent<PackagePaymentDeclined>).data;
    const payment = await trx.selectFrom('package_payments').select(['member_id', 'purpose', 'description', 'amount_due']).where('id', '=', d.payment_id).executeTakeFirst();
    // A stock purchase's card payment declined declines the purchase, which has its own mail.
    if (!payment || payment.purpose === 'stock_purchase') return null;
    return {
      memberId: payment.member_id,
      key: byEvent(recorded),
      decision: { kind: 'payment-declined', purpose: payment.purpose, description: payment.description, amountKobo: payment.amount_due, reason: d.reason },
    };
  },

  // A member's own request needs no mail; an administrator's payout does.
  async WithdrawalRequested(_trx, recorded) {
    const d = (recorded as RecordedEvent<WithdrawalRequested>).data;
    if (d.kind !== 'payout') return null;
    return {
      memberId: d.member_id,
      key: byEvent(recorded),
      decision: { kind: 'payout-made', amountKobo: d.amount_kobo, reason: d.reason, bank: { bankName: d.bank.bank_name, accountNumber: d.bank.account_number, accountName: d.bank.account_name } },
    };
  },

  async WithdrawalSent(trx, recorded) {
    const d = (recorded as RecordedEvent<WithdrawalSent>).data;
    const w = await withdrawal(trx, d.withdrawal_id);
    // A payout's mail already said it is on its way.
    if (!w || w.kind === 'payout') return null;
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'withdrawal-sent', amountKobo: w.amount, feeKobo: w.fee, netKobo: w.net_amount, bank: bankOf(w) } };
  },

  async WithdrawalSucceeded(trx, recorded) {
    const d = (recorded as RecordedEvent<WithdrawalSucceeded>).data;
    const w = await withdrawal(trx, d.withdrawal_id);
    if (!w) return null;
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'withdrawal-paid', withdrawalKind: w.kind, netKobo: w.net_amount, bank: bankOf(w) } };
  },

  async WithdrawalFailed(trx, recorded) {
    const d = (recorded as RecordedEvent<WithdrawalFailed>).data;
    const w = await withdrawal(trx, d.withdrawal_id);
    if (!w) return null;
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'withdrawal-failed', withdrawalKind: w.kind, amountKobo: w.amount, returnedKobo: d.returned_kobo, reason: d.reason } };
  },

  async IncentiveClaimApproved(trx, recorded) {
    const d = (recorded as RecordedEvent<IncentiveClaimApproved>).data;
    const claim = await trx.selectFrom('incentive_claims').select('rank_name').where('id', '=', d.claim_id).executeTakeFirst();
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'incentive-approved', incentive: d.incentive, rankName: claim?.rank_name ?? `rank ${d.rank_id}`, worthKobo: d.worth_kobo } };
  },

  async IncentiveClaimDeclined(trx, recorded) {
    const d = (recorded as RecordedEvent<IncentiveClaimDeclined>).data;
    const claim = await trx.selectFrom('incentive_claims').select('incentive').where('id', '=', d.claim_id).executeTakeFirst();
    if (!claim) return null;
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'incentive-declined', incentive: claim.incentive, reason: d.reason?.trim() ? d.reason : null } };
  },

  // Held bonuses are settled by one approval, many at once (one event each): one mail for them
  // all, keyed by the approval, with the sum of every bonus it released to this member (all in
  // the compensation policy's one transaction, so all visible together).
  async BonusCredited(trx, recorded) {
    const d = (recorded as RecordedEvent<BonusCredited>).data;
    if (!d.settles_hold) return null;
    const decidedBy = d.settles_hold.decided_by_event_id;
    const { rows } = await sql<{ total: string; count: number }>`
      select coalesce(sum((data->>'amount_kobo')::bigint), 0)::text as total, count(*)::int as count from events
      where stream_id = ${recorded.streamId} and type = 'BonusCredited'
        and data->'settles_hold'->>'decided_by_event_id' = ${decidedBy}`.execute(trx);
    const totals = rows[0] ?? { total: '0', count: 0 };
    if (Number(totals.total) <= 0) return null;
    return { memberId: d.beneficiary_id, key: `held-released:${d.beneficiary_id}:${decidedBy}`, decision: { kind: 'held-bonuses-released', totalKobo: Number(totals.total), count: totals.count } };
  },

  async StockistApproved(trx, recorded) {
    const d = (recorded as RecordedEvent<StockistApproved>).data;
    const stockist = await store(trx, d.stockist_id);
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'stockist-approved', storeName: stockist?.store_name ?? 'Your store', packageName: d.stockist_package.name } };
  },

  async StockistDisapproved(trx, recorded) {
    const d = (recorded as RecordedEvent<StockistDisapproved>).data;
    const stockist = await store(trx, d.stockist_id);
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'stockist-disapproved', storeName: stockist?.store_name ?? 'your store', reason: d.reason } };
  },

  async StockistUpgradeApproved(trx, recorded) {
    const d = (recorded as RecordedEvent<StockistUpgradeApproved>).data;
    const stockist = await store(trx, d.stockist_id);
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'stockist-upgrade-approved', storeName: stockist?.store_name ?? 'Your store', toPackage: d.to_package.name, amountKobo: d.amount_kobo } };
  },

  async StockistUpgradeDisapproved(trx, recorded) {
    const d = (recorded as RecordedEvent<StockistUpgradeDisapproved>).data;
    const stockist = await store(trx, d.stockist_id);
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'stockist-upgrade-disapproved', storeName: stockist?.store_name ?? 'your store', reason: d.reason } };
  },

  async StockPurchaseApproved(_trx, recorded) {
    const d = (recorded as RecordedEvent<StockPurchaseApproved>).data;
    const quantity = d.lines.reduce((sum, line) => sum + line.qty, 0);
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'stock-purchase-approved', totalKobo: d.total_price_kobo, quantity } };
  },

  async StockPurchaseDeclined(trx, recorded) {
    const d = (recorded as RecordedEvent<StockPurchaseDeclined>).data;
    const purchase = await trx.selectFrom('stock_purchases').select(['member_id', 'total_price']).where('id', '=', d.purchase_id).executeTakeFirst();
    if (!purchase) return null;
    return { memberId: purchase.member_id, key: byEvent(recorded), decision: { kind: 'stock-purchase-declined', totalKobo: purchase.total_price, reason: d.reason } };
  },

  async ProductPurchaseCollected(trx, recorded) {
    const d = (recorded as RecordedEvent<ProductPurchaseCollected>).data;
    const order = await trx.selectFrom('product_purchases').select('order_code').where('id', '=', d.purchase_id).executeTakeFirst();
    const stockist = d.stockist_id ? await store(trx, d.stockist_id) : undefined;
    const place = d.by === 'stockist' ? (stockist ? `at ${stockist.store_name}, ${stockist.store_address}` : 'at a stockist') : 'at the head office';
    return { memberId: d.member_id, key: byEvent(recorded), decision: { kind: 'order-collected', orderCode: order?.order_code ?? null, totalKobo: d.total_price_kobo, place } };
  },
};

async function withdrawal(trx: Trx, id: string) {
  return trx.selectFrom('withdrawals').select(['kind', 'amount', 'fee', 'net_amount', 'bank_name', 'account_number', 'account_name']).where('id', '=', id).executeTakeFirst();
}

function bankOf(w: { bank_name: string; account_number: string; account_name: string }) {
  return { bankName: w.bank_name, accountNumber: w.account_number, accountName: w.account_name };
}

async function store(trx: Trx, stockistId: string) {
  return trx.selectFrom('stockists').select(['store_name', 'store_address']).where('id', '=', stockistId).executeTakeFirst();
}

export const notifiedEventTypes = Object.keys(loaders);

/** Whether an event is too old to be news when the policy reads it. */
export function isStale(recordedAt: string, now: Date): boolean {
  return now.getTime() - new Date(recordedAt).getTime() > MAX_AGE_DAYS * 24 * 60 * 60_000;
}

/**
 * `publicUrl`: where the member app is served (links in the mails); read when a batch is applied,
 * from PUBLIC_URL as the api reads it, unless given.
 */
export function memberNotificationsPolicy(options: { publicUrl?: () => string; now?: () => Date } = {}): Consumer {
  const publicUrl = options.publicUrl ?? (() => publicUrlOf(process.env));
  const now = options.now ?? (() => new Date());
  return {
    name: NOTIFICATIONS_POLICY,
    kind: 'policy',
    eventTypes: notifiedEventTypes,
    // It queues mail; it records no event.
    appends: [],
    batchSize: 100,
    async apply(trx, events) {
      const at = now();
      for (const event of events) {
        if (isStale(event.recordedAt, at)) continue;
        const notice = await loaders[event.type]?.(trx, event);
        if (!notice) continue;
        const member = await trx.selectFrom('members').select(['email', 'first_name']).where('id', '=', notice.memberId).executeTakeFirst();
        if (!member) continue;
        const mail = decisionMail(notice.decision, { email: member.email, firstName: member.first_name }, publicUrl());
        // Due as of the decision (the clock it was decided by), never later than now.
        const due = new Date(Math.min(new Date(event.recordedAt).getTime(), at.getTime()));
        await enqueueMail(trx, { to: member.email, ...mail, category: notice.decision.kind, key: notice.key }, due);
      }
    },
  };
}
