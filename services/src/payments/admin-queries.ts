import { memberFigure } from '../membership/member-totals';
import { type RawBuilder, sql } from 'kysely';
import { type ListRequest, type ResourceColumns, selectPage } from '../api/simple-rest';
import type { AdminPackagePayment, PackageUpgrade, PaidRegistration } from '../contracts/approvals';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import type { PackagePaymentStatus } from '../database';
import { awaitingDecision, paymentToApi } from './queries';
import { storedFileLink } from '../core/stored-files';
import { transferReference } from '../contracts/bank-transfer';

/**
 * Reads for the back office's Registration History tab (seed 002 "Transactions screen"): package
 * payments, paid registrations and approved upgrades, each as a ra-data-simple-rest resource
 * (columns, default sort, search) and as the portal catalogue's paged lists and totals.
 */

const like = (q: string) => `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const fullName = sql`(m.first_name || ' ' || m.last_name)`;
const memberSearch = (q: string, extra: RawBuilder<unknown>[] = []) => {
  const pattern = like(q);
  return sql<boolean>`(m.first_name ilike ${pattern} or m.last_name ilike ${pattern} or ${fullName} ilike ${pattern} or m.username ilike ${pattern}${sql.join(
    extra.map((column) => sql` or ${column} ilike ${pattern}`),
    sql``,
  )})`;
};
const awaiting = sql.join(awaitingDecision.map((status) => sql`${status}`));

// ── Package payments ─────────────────────────────────────────────────────────────────────────

const paymentQueue = sql`(case when p.status in (${awaiting}) then 'pending' when p.method = 'pop' then 'history' else 'other' end)`;
const paymentMethod = sql`(case p.method when 'payment_gateway' then 'card' when 'pop' then 'receipt' else 'wallet' end)`;

export const packagePaymentsResource = {
  columns: {
    id: { sql: sql`p.id::text`, type: 'text' },
    member_id: { sql: sql`p.member_id::text`, type: 'text' },
    full_name: { sql: fullName, type: 'text' },
    first_name: { sql: sql`m.first_name`, type: 'text' },
    last_name: { sql: sql`m.last_name`, type: 'text' },
    username: { sql: sql`m.username`, type: 'text' },
    package_name: { sql: sql`pkg.name`, type: 'text' },
    name: { sql: sql`pkg.name`, type: 'text' },
    purpose: { sql: sql`p.purpose`, type: 'text' },
    method: { sql: paymentMethod, type: 'text' },
    payment_type: { sql: sql`p.method`, type: 'text' },
    amount: { sql: sql`(p.amount_due / 100.0)`, type: 'number' },
    status: { sql: sql`p.status`, type: 'text' },
    queue: { sql: paymentQueue, type: 'text' },
    reference: { sql: sql`p.reference`, type: 'text' },
    created_at: { sql: sql`p.created_at`, type: 'timestamp' },
    decided_at: { sql: sql`p.decided_at`, type: 'timestamp' },
  } satisfies ResourceColumns,
  defaultSort: ['created_at', 'DESC'] as ['created_at', 'DESC'],
  search: (q: string) => memberSearch(q, [sql`p.reference`]),
};

type PaymentRow = Parameters<typeof paymentToApi>[0] & { package_id: number | null; held_kobo?: string | number | null };

const paymentFrom = sql`
  from package_payments p
  join members m on m.id = p.member_id
  left join packages pkg on pkg.id = p.package_id
  left join packages prev on prev.id = p.from_package_id`;

const paymentColumns = sql`
  p.id, p.member_id, p.purpose, p.method, p.package_id, p.amount_due, p.amount_paid, p.status, p.status_reason, p.description,
    p.reference, p.receipt_path, p.created_at, p.decided_at, m.first_name, m.last_name, m.username,
    pkg.name as package_name, prev.name as previous_package_name,
    case when p.purpose = 'registration' then (
      select coalesce(sum((h.decision->>'amount_kobo')::bigint), 0) from held_bonuses h
      where h.beneficiary_id = p.member_id and h.resolution is null) else 0 end as held_kobo`;

function adminPayment(row: PaymentRow): AdminPackagePayment {
  const payment = paymentToApi(row);
  const method = row.method === 'payment_gateway' ? 'card' : row.method === 'pop' ? 'receipt' : 'wallet';
  const queue = awaitingDecision.includes(row.status as PackagePaymentStatus) ? 'pending' : row.method === 'pop' ? 'history' : 'other';
  const receiptUrl = row.receipt_path ? storedFileLink(`/${row.receipt_path.replace(/^\/+/, '')}`) : null;
  return {
    ...payment,
    member_id: row.member_id,
    full_name: `${row.first_name} ${row.last_name}`,
    method,
    queue,
    receipt_url: receiptUrl,
    transfer_reference: paymentTransferReference(row),
    held_bonuses: koboToNaira(Number(row.held_kobo ?? 0)),
  };
}

/**
 * What the member was asked to write on the transfer, derived as the member pages derive it: the
 * welcome page (registration) and the upgrade page (upgrade, with the package upgraded to).
 */
function paymentTransferReference(row: PaymentRow): string | null {
  if (row.method !== 'pop') return null;
  if (row.purpose === 'registration') return transferReference('registration', row.username);
  if (row.purpose === 'upgrade') return transferReference('upgrade', row.username, row.package_id);
  return null;
}

export async function listPackagePayments(db: Executor, list: ListRequest): Promise<{ rows: AdminPackagePayment[]; total: number }> {
  const { rows, total } = await selectPage<PaymentRow>(db, { columns: paymentColumns, from: paymentFrom, tiebreak: sql`p.created_at desc, p.id`, list });
  return { rows: rows.map(adminPayment), total };
}

export async function findAdminPackagePayment(db: Executor, id: string): Promise<AdminPackagePayment | null> {
  const { rows } = await sql<PaymentRow>`select ${paymentColumns} ${paymentFrom} where p.id::text = ${id}`.execute(db);
  return rows[0] ? adminPayment(rows[0]) : null;
}

// ── Paid registrations ───────────────────────────────────────────────────────────────────────

/** A member's registration payment: the first approved one (a member activates once). */
const registrationFrom = sql`
  from members m
  join lateral (
    select r.* from package_payments r
    where r.member_id = m.id and r.purpose = 'registration' and r.status = 'approved'
    order by r.decided_at nulls last, r.created_at, r.id limit 1
  ) p on true
  left join packages pkg on pkg.id = p.package_id
  left join packages cur on cur.id = m.package_id`;

export const registrationsResource = {
  columns: {
    id: { sql: sql`m.id::text`, type: 'text' },
    uuid: { sql: sql`m.id::text`, type: 'text' },
    member_id: { sql: sql`m.id::text`, type: 'text' },
    full_name: { sql: fullName, type: 'text' },
    first_name: { sql: sql`m.first_name`, type: 'text' },
    last_name: { sql: sql`m.last_name`, type: 'text' },
    username: { sql: sql`m.username`, type: 'text' },
    package_id: { sql: sql`p.package_id`, type: 'number' },
    package_name: { sql: sql`pkg.name`, type: 'text' },
    name: { sql: sql`pkg.name`, type: 'text' },
    current_package_name: { sql: sql`cur.name`, type: 'text' },
    amount: { sql: sql`(p.amount_due / 100.0)`, type: 'number' },
    payment_type: { sql: sql`p.method`, type: 'text' },
    reference: { sql: sql`p.reference`, type: 'text' },
    upgrades: { sql: sql`(select count(*) from package_payments u where u.member_id = m.id and u.purpose = 'upgrade' and u.status = 'approved')`, type: 'number' },
    created_at: { sql: sql`m.created_at`, type: 'timestamp' },
    paid_at: { sql: sql`p.decided_at`, type: 'timestamp' },
  } satisfies ResourceColumns,
  defaultSort: ['created_at', 'DESC'] as ['created_at', 'DESC'],
  search: (q: string) => memberSearch(q, [sql`pkg.name`, sql`p.reference`]),
};

type RegistrationRow = {
  id: string; first_name: string; last_name: string; username: string; package_id: number | null; package_name: string | null;
  current_package_name: string | null; amount_due: number; payment_id: string; method: 'payment_gateway' | 'pop' | 'wallet';
  reference: string | null; upgrades: number; created_at: Date; paid_at: Date | null;
};

const registrationColumns = sql`
  m.id, m.first_name, m.last_name, m.username, p.package_id, pkg.name as package_name, cur.name as current_package_name,
    p.amount_due, p.id as payment_id, p.method, p.reference, p.decided_at as paid_at, m.created_at,
    (select count(*)::int from package_payments u where u.member_id = m.id and u.purpose = 'upgrade' and u.status = 'approved') as upgrades`;

function toRegistration(row: RegistrationRow): PaidRegistration {
  return {
    id: row.id,
    uuid: row.id,
    member_id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: `${row.first_name} ${row.last_name}`,
    username: row.username,
    package_id: row.package_id,
    package_name: row.package_name ?? '',
    name: row.package_name ?? '',
    current_package_name: row.current_package_name,
    amount: koboToNaira(row.amount_due),
    payment_id: row.payment_id,
    payment_type: row.method,
    reference: row.reference,
    upgrades: row.upgrades,
    created_at: row.created_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
  };
}

export async function listRegistrations(db: Executor, list: ListRequest): Promise<{ rows: PaidRegistration[]; total: number }> {
  const { rows, total } = await selectPage<RegistrationRow>(db, { columns: registrationColumns, from: registrationFrom, tiebreak: sql`m.created_at desc, m.id`, list });
  return { rows: rows.map(toRegistration), total };
}

export async function findRegistration(db: Executor, memberId: string): Promise<PaidRegistration | null> {
  const { rows } = await sql<RegistrationRow>`select ${registrationColumns} ${registrationFrom} where m.id::text = ${memberId}`.execute(db);
  return rows[0] ? toRegistration(rows[0]) : null;
}

// ── Approved upgrades ────────────────────────────────────────────────────────────────────────

const upgradeFrom = sql`
  from package_payments p
  join members m on m.id = p.member_id
  left join packages pkg on pkg.id = p.package_id
  left join packages prev on prev.id = p.from_package_id`;
const approvedUpgrade = sql<boolean>`p.purpose = 'upgrade' and p.status = 'approved'`;

export const upgradesResource = {
  columns: {
    id: { sql: sql`p.id::text`, type: 'text' },
    member_id: { sql: sql`p.member_id::text`, type: 'text' },
    uuid: { sql: sql`p.member_id::text`, type: 'text' },
    full_name: { sql: fullName, type: 'text' },
    first_name: { sql: sql`m.first_name`, type: 'text' },
    last_name: { sql: sql`m.last_name`, type: 'text' },
    username: { sql: sql`m.username`, type: 'text' },
    previous_package_name: { sql: sql`prev.name`, type: 'text' },
    package_name: { sql: sql`pkg.name`, type: 'text' },
    name: { sql: sql`pkg.name`, type: 'text' },
    package: { sql: sql`pkg.name`, type: 'text' },
    amount: { sql: sql`(p.amount_due / 100.0)`, type: 'number' },
    payment_type: { sql: sql`p.method`, type: 'text' },
    reference: { sql: sql`p.reference`, type: 'text' },
    created_at: { sql: sql`coalesce(p.decided_at, p.created_at)`, type: 'timestamp' },
    requested_at: { sql: sql`p.created_at`, type: 'timestamp' },
  } satisfies ResourceColumns,
  defaultSort: ['created_at', 'DESC'] as ['created_at', 'DESC'],
  search: (q: string) => memberSearch(q, [sql`pkg.name`, sql`p.reference`]),
};

type UpgradeRow = {
  id: string; member_id: string; first_name: string; last_name: string; username: string; package_name: string | null;
  previous_package_name: string | null; previous_packages: string[]; amount_due: number; method: 'payment_gateway' | 'pop' | 'wallet';
  reference: string | null; status: string; created_at: Date; decided_at: Date | null;
};

/**
 * The packages held before an upgrade: the registration's package, then each earlier upgrade's.
 * Upgrades only go up, so the packages left behind ordered by id are in the order they were held.
 */
const upgradeColumns = sql`
  p.id, p.member_id, m.first_name, m.last_name, m.username, pkg.name as package_name, prev.name as previous_package_name,
    array(
      select pk.name from package_payments u join packages pk on pk.id = u.from_package_id
      where u.member_id = p.member_id and u.purpose = 'upgrade' and u.status = 'approved' and u.package_id <= p.package_id
      order by pk.id
    ) as previous_packages,
    p.amount_due, p.method, p.reference, p.status, p.created_at, p.decided_at`;

function toUpgrade(row: UpgradeRow): PackageUpgrade {
  const packageName = row.package_name ?? '';
  return {
    id: row.id,
    member_id: row.member_id,
    uuid: row.member_id,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: `${row.first_name} ${row.last_name}`,
    username: row.username,
    previous_packages: row.previous_packages,
    previous_package_name: row.previous_package_name,
    package_name: packageName,
    name: packageName,
    package: packageName,
    amount: koboToNaira(row.amount_due),
    payment_type: row.method,
    reference: row.reference,
    status: row.status,
    created_at: (row.decided_at ?? row.created_at).toISOString(),
    requested_at: row.created_at.toISOString(),
  };
}

export async function listUpgrades(db: Executor, list: ListRequest): Promise<{ rows: PackageUpgrade[]; total: number }> {
  const { rows, total } = await selectPage<UpgradeRow>(db, { columns: upgradeColumns, from: upgradeFrom, fixed: approvedUpgrade, tiebreak: sql`p.created_at desc, p.id`, list });
  return { rows: rows.map(toUpgrade), total };
}

export async function findUpgrade(db: Executor, id: string): Promise<PackageUpgrade | null> {
  const { rows } = await sql<UpgradeRow>`select ${upgradeColumns} ${upgradeFrom} where ${approvedUpgrade} and p.id::text = ${id}`.execute(db);
  return rows[0] ? toUpgrade(rows[0]) : null;
}

// ── The portal catalogue's totals (seed 002 §7 Users) ────────────────────────────────────────

/** Members who registered (paid or not), the company root aside. */
export async function countRegistrations(db: Executor): Promise<number> {
  return (await memberFigure(db, 'registered')).n;
}

/** Members whose registration payment was approved. */
export async function countPaidRegistrations(db: Executor): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n ${registrationFrom}`.execute(db);
  return rows[0]!.n;
}

/** What the approved registration payments came to, in kobo. */
export async function sumPaidRegistrationsKobo(db: Executor): Promise<number> {
  const { rows } = await sql<{ total: string }>`select coalesce(sum(p.amount_due), 0)::text as total ${registrationFrom}`.execute(db);
  return Number(rows[0]!.total);
}
