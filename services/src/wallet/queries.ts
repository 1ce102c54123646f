import { sql } from 'kysely';
import type { Withdrawal } from '../contracts/wallet';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';

export const PER_PAGE = 10;

function withdrawalRows(db: Executor) {
  return db
    .selectFrom('withdrawals as w')
    .innerJoin('members as m', 'm.id', 'w.member_id')
    .select([
      'w.id', 'w.member_id', 'm.username', 'm.first_name', 'm.last_name', 'w.amount', 'w.fee', 'w.net_amount', 'w.status', 'w.kind', 'w.automatic',
      'w.reason', 'w.bank_name', 'w.account_number', 'w.account_name', 'w.transfer_reference', 'w.failure_reason', 'w.created_at', 'w.sent_at', 'w.completed_at',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof withdrawalRows>['execute']>>[number];

/** A withdrawals row with its member's names, as the api answers it. */
export function toWithdrawal(r: Row): Withdrawal {
  return {
    id: r.id,
    member_uuid: r.member_id,
    username: r.username,
    first_name: r.first_name,
    last_name: r.last_name,
    amount: koboToNaira(r.amount),
    fee: koboToNaira(r.fee),
    charge: koboToNaira(r.fee),
    net_amount: koboToNaira(r.net_amount),
    status: r.status,
    type: r.kind,
    automatic: r.automatic,
    reason: r.reason,
    bank_name: r.bank_name,
    account_number: r.account_number,
    account_name: r.account_name,
    transfer_reference: r.transfer_reference,
    failure_reason: r.failure_reason,
    created_at: r.created_at.toISOString(),
    payout_date: r.sent_at?.toISOString() ?? null,
    completed_at: r.completed_at?.toISOString() ?? null,
  };
}

/** Newest first, 10 a page; `filter`: one member's, or a search over names, e-mail, status and reference. */
export async function pageWithdrawals(db: Executor, filter: { memberId?: string; search?: string }, page: number) {
  let query = withdrawalRows(db);
  if (filter.memberId) query = query.where('w.member_id', '=', filter.memberId);
  const search = filter.search?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('m.username', 'ilike', like),
        eb('m.first_name', 'ilike', like),
        eb('m.last_name', 'ilike', like),
        eb('m.email', 'ilike', like),
        eb(sql`m.first_name || ' ' || m.last_name`, 'ilike', like),
        eb(sql<string>`w.status`, 'ilike', like),
        eb(sql<string>`w.kind`, 'ilike', like),
        eb('w.transfer_reference', 'ilike', like),
      ]),
    );
  }
  const { total } = await query.clearSelect().select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.orderBy('w.created_at', 'desc').orderBy('w.id').limit(PER_PAGE).offset((page - 1) * PER_PAGE).execute();
  const count = Number(total);
  return { data: rows.map(toWithdrawal), current_page: page, last_page: Math.max(1, Math.ceil(count / PER_PAGE)), per_page: PER_PAGE, total: count };
}

export async function findWithdrawal(db: Executor, withdrawalId: string): Promise<Withdrawal | null> {
  const row = await withdrawalRows(db).where('w.id', '=', withdrawalId).executeTakeFirst();
  return row ? toWithdrawal(row) : null;
}

export async function pendingWithdrawals(db: Executor, memberId: string): Promise<Withdrawal[]> {
  const rows = await withdrawalRows(db).where('w.member_id', '=', memberId).where('w.status', '=', 'pending').orderBy('w.created_at', 'desc').execute();
  return rows.map(toWithdrawal);
}

/** Money out of wallets by status, in naira; `total` = successful + processing + pending. One member's, or everyone's. */
export async function withdrawalTotals(db: Executor, memberId?: string) {
  let query = db
    .selectFrom('withdrawals')
    .select([
      sql<string>`coalesce(sum(amount) filter (where status = 'successful'), 0)`.as('successful'),
      sql<string>`coalesce(sum(amount) filter (where status = 'processing'), 0)`.as('processing'),
      sql<string>`coalesce(sum(amount) filter (where status = 'pending'), 0)`.as('pending'),
      sql<string>`count(*) filter (where status <> 'failed')`.as('count'),
    ]);
  if (memberId) query = query.where('member_id', '=', memberId);
  const row = await query.executeTakeFirstOrThrow();
  const [successful, processing, pending] = [Number(row.successful), Number(row.processing), Number(row.pending)];
  return {
    total: koboToNaira(successful + processing + pending),
    successful: koboToNaira(successful),
    processing: koboToNaira(processing),
    pending: koboToNaira(pending),
    count: Number(row.count),
  };
}

/**
 * Company finance (BUSINESS-RULES.md §4, seed 001 §2.9): the company wallet is every approved
 * payment received, total withdrawals every successful withdrawal and payout, the balance the
 * difference.
 */
export async function companyFinance(db: Executor) {
  // Every approved package payment, whatever its purpose, from their daily totals (payments/projections.ts paymentTotals).
  const received = await db.selectFrom('daily_payment_totals').select(sql<string>`coalesce(sum(amount), 0)`.as('total')).executeTakeFirstOrThrow();
  // Stockist package payments (registration and upgrades) and paid re-stocks (pick-up stock is paid with the package).
  // A re-stock paid by card is already among the approved payments above (purpose stock_purchase).
  const stockist = await db
    .selectFrom('stockist_payments')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
    .where('status', '=', 'approved')
    .executeTakeFirstOrThrow();
  const restock = await db
    .selectFrom('stock_purchases')
    .select(sql<string>`coalesce(sum(total_price), 0)`.as('total'))
    .where('status', '=', 'approved')
    .where('pickup_type', '=', 're-stock')
    .where('payment_id', 'is', null)
    .executeTakeFirstOrThrow();
  // Every successful withdrawal, from their daily totals (projections.ts withdrawalTotals).
  const paidOut = await db.selectFrom('daily_withdrawal_totals').select(sql<string>`coalesce(sum(amount), 0)`.as('total')).executeTakeFirstOrThrow();
  const wallet = Number(received.total) + Number(stockist.total) + Number(restock.total);
  const withdrawals = Number(paidOut.total);
  return { total_company_wallet: koboToNaira(wallet), total_withdrawals: koboToNaira(withdrawals), balance: koboToNaira(wallet - withdrawals) };
}
