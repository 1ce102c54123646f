import type { PackageDifference, PackagePayment } from '../contracts/payments';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import type { PackagePaymentStatus } from '../database';
import { storedFileLink } from '../core/stored-files';

export const PAGE_SIZE = 20;

/** Statuses an admin has to decide on: receipts, and gateway payments that could not be applied. */
export const awaitingDecision: PackagePaymentStatus[] = ['pending', 'amount_mismatch', 'not_applied'];

function paymentsQuery(db: Executor) {
  return db
    .selectFrom('package_payments as p')
    .innerJoin('members as m', 'm.id', 'p.member_id')
    .leftJoin('packages as pkg', 'pkg.id', 'p.package_id')
    .leftJoin('packages as prev', 'prev.id', 'p.from_package_id')
    .select([
      'p.id', 'p.member_id', 'p.purpose', 'p.method', 'p.amount_due', 'p.amount_paid', 'p.status', 'p.status_reason', 'p.description',
      'p.reference', 'p.receipt_path', 'p.created_at', 'p.decided_at',
      'm.first_name', 'm.last_name', 'm.username',
      'pkg.name as package_name', 'prev.name as previous_package_name',
    ]);
}

type PaymentRow = Awaited<ReturnType<ReturnType<typeof paymentsQuery>['executeTakeFirstOrThrow']>>;

export function paymentToApi(row: PaymentRow): PackagePayment {
  return {
    id: row.id,
    member_uuid: row.member_id,
    first_name: row.first_name,
    last_name: row.last_name,
    username: row.username,
    // A product purchase's payment has no package: its lists show what was bought instead.
    name: row.package_name ?? purposeName(row.purpose),
    package_name: row.package_name ?? purposeName(row.purpose),
    previous_package_name: row.previous_package_name,
    purpose: row.purpose,
    payment_type: row.method,
    amount: koboToNaira(row.amount_due),
    amount_paid: row.amount_paid === null ? null : koboToNaira(row.amount_paid),
    status: row.status,
    status_reason: row.status_reason,
    narration: row.description,
    description: row.description,
    reference: row.reference,
    payment_receipt: storedFileLink(row.receipt_path),
    created_at: row.created_at.toISOString(),
    decided_at: row.decided_at?.toISOString() ?? null,
  };
}

const PRODUCT_PURCHASE_NAME = 'Product repurchase';
const STOCK_PURCHASE_NAME = 'Stockist re-stock';
/** What a payment that buys no package is for, where a package name would be shown. */
const purposeName = (purpose: string) => (purpose === 'product_purchase' ? PRODUCT_PURCHASE_NAME : purpose === 'stock_purchase' ? STOCK_PURCHASE_NAME : '');

export type PaymentListFilter = 'awaiting-decision' | 'upload-history' | { memberId: string; purpose?: 'registration' | 'upgrade' };

function filtered(db: Executor, filter: PaymentListFilter) {
  let query = paymentsQuery(db);
  if (filter === 'awaiting-decision') query = query.where('p.status', 'in', awaitingDecision);
  else if (filter === 'upload-history') query = query.where('p.method', '=', 'pop').where('p.status', 'not in', awaitingDecision);
  else {
    // A member's package payments; their purchases have their own history (purchases/queries.ts).
    query = query.where('p.member_id', '=', filter.memberId).where('p.status', '!=', 'initiated').where('p.purpose', 'in', ['registration', 'upgrade']);
    if (filter.purpose) query = query.where('p.purpose', '=', filter.purpose);
  }
  return query;
}

export async function countPayments(db: Executor, filter: PaymentListFilter): Promise<number> {
  const row = await filtered(db, filter).clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page in the seeds' paged shape: { data, current_page, last_page, per_page, total }. */
export async function pagePayments(db: Executor, filter: PaymentListFilter, page: number, perPage = PAGE_SIZE) {
  const total = await countPayments(db, filter);
  const rows = await filtered(db, filter).orderBy('p.created_at', 'desc').orderBy('p.id').limit(perPage).offset((page - 1) * perPage).execute();
  return { data: rows.map(paymentToApi), current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total };
}

export async function findPayment(db: Executor, id: string): Promise<PackagePayment | null> {
  const row = await paymentsQuery(db).where('p.id', '=', id).executeTakeFirst();
  return row ? paymentToApi(row) : null;
}

function packageSummary(row: { id: number; name: string; registration_value: number; pickup_amount: number; point_value: number }) {
  return { id: row.id, name: row.name, registration_value: koboToNaira(row.registration_value), pickup_amount: koboToNaira(row.pickup_amount), point_value: row.point_value };
}

/**
 * What an upgrade costs (seed 000 §7 "Package difference"): the chosen package's registration value
 * minus the current one's. For an upgrade pick-up it is the allowance the last upgrade gave: the
 * pick-up amounts' difference between the package before and the package now.
 */
export async function packageDifference(
  db: Executor,
  member: { id: string; package_id: number },
  input: { targetPackageId: number | null; upgradePickup: boolean },
): Promise<PackageDifference | null> {
  if (input.upgradePickup) {
    const last = await db.selectFrom('package_payments').select(['id', 'from_package_id', 'package_id']).where('member_id', '=', member.id).where('purpose', '=', 'upgrade').where('status', '=', 'approved').orderBy('decided_at', 'desc').executeTakeFirst();
    if (!last?.from_package_id) return null;
    const [before, now, taken] = await Promise.all([
      db.selectFrom('packages').selectAll().where('id', '=', last.from_package_id).executeTakeFirst(),
      db.selectFrom('packages').selectAll().where('id', '=', last.package_id).executeTakeFirst(),
      // The key placeAllowancePurchase takes for this upgrade's pick-up (purchases/commands.ts allowanceFor).
      db.selectFrom('unique_keys').select('key').where('scope', '=', 'upgrade-pickup').where('key', '=', `${member.id}:${last.id}`).executeTakeFirst(),
    ]);
    if (!before || !now) return null;
    return {
      package_name: now.name, package_difference: koboToNaira(Math.max(0, now.pickup_amount - before.pickup_amount)), current_package: packageSummary(before), new_package: packageSummary(now),
      pickup_used: taken !== undefined,
    };
  }
  if (!input.targetPackageId) return null;
  const [current, target] = await Promise.all([
    db.selectFrom('packages').selectAll().where('id', '=', member.package_id).executeTakeFirst(),
    db.selectFrom('packages').selectAll().where('id', '=', input.targetPackageId).executeTakeFirst(),
  ]);
  if (!current || !target || target.id <= current.id) return null;
  return { package_name: target.name, package_difference: koboToNaira(target.registration_value - current.registration_value), current_package: packageSummary(current), new_package: packageSummary(target) };
}
