import { type RawBuilder, sql } from 'kysely';
import type { PackageFields } from '../catalogue/events';
import { type BonusTableKind, GENERATIONS, generationField } from '../contracts/settings';
import type { Executor } from '../core/db';
import type { LogPosition } from '../core/event-store';
import { SETTINGS_STREAM } from '../settings/events';
import { type SettingsValues, settingsValues } from '../settings/values';

/**
 * The facts a bonus is decided on, as they stood when its cause was recorded (BUSINESS-RULES.md §3
 * "Trees"; docs/money-as-of-cause.md). "When" is the cause's place in the log (commit order:
 * transaction id, then global position), never the wall clock and never the moment a worker gets
 * there: a backlog, a restart or a rebuild reads the same facts and decides the same money.
 *
 * Configuration (settings, generation tables, packages) is folded from its own events up to the
 * cause. Members carry where their registration, activation and current package entered the log
 * (members.*_xid / *_position, written by the inline projection), so "active at the cause" is a
 * comparison, set-based however many members a cycle reads.
 */

/** `(transaction_id, global_position) <= cause` on an events alias: the event is at or before the cause in the log. */
export const atOrBefore = (alias: string, at: LogPosition): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(`${alias}.transaction_id`)}, ${sql.ref(`${alias}.global_position`)}) <= (${at.transactionId}::xid8, ${at.globalPosition}::bigint)`;

/** A member fact (`registered`, `activated`, `package`) recorded at or before the cause; false when never recorded. */
export const memberFactBy = (alias: string, fact: 'registered' | 'activated' | 'package', at: LogPosition): RawBuilder<boolean> =>
  sql<boolean>`coalesce((${sql.ref(`${alias}.${fact}_xid`)}, ${sql.ref(`${alias}.${fact}_position`)}) <= (${at.transactionId}::xid8, ${at.globalPosition}::bigint), false)`;

type ChangeRow = { stream_id: string; type: string; data: Record<string, unknown> };

async function configEvents(db: Executor, at: LogPosition, filter: RawBuilder<boolean>): Promise<ChangeRow[]> {
  const { rows } = await sql<ChangeRow>`
    select e.stream_id, e.type, e.data from events e
    where ${filter} and ${atOrBefore('e', at)}
    order by e.transaction_id, e.global_position`.execute(db);
  return rows;
}

/** The company settings as they stood at the cause. */
export async function settingsAt(db: Executor, at: LogPosition): Promise<SettingsValues> {
  const rows = await configEvents(db, at, sql<boolean>`e.stream_id = ${SETTINGS_STREAM}`);
  const values = rows.reduce<Record<string, unknown>>((folded, row) => Object.assign(folded, row.data.changes as object), {});
  return settingsValues.parse(values);
}

/** One generation table (package id → percentages of generations 1..10) as it stood at the cause; unset generations are 0. */
export async function generationTablesAt(db: Executor, kind: BonusTableKind, at: LogPosition): Promise<Record<number, number[]>> {
  const rows = await configEvents(db, at, sql<boolean>`e.type = 'BonusGenerationsChanged' and e.data->>'kind' = ${kind}`);
  const tables: Record<number, number[]> = {};
  for (const row of rows) {
    const packageId = Number(row.data.package_id);
    const changes = row.data.changes as Record<string, number>;
    const current = tables[packageId] ?? GENERATIONS.map(() => 0);
    tables[packageId] = GENERATIONS.map((g, index) => changes[generationField(g)] ?? current[index] ?? 0);
  }
  return tables;
}

/** The percentages of one package's row of a table at the cause (all 0 when never set). */
export async function generationRowAt(db: Executor, kind: BonusTableKind, packageId: number, at: LogPosition): Promise<number[]> {
  return (await generationTablesAt(db, kind, at))[packageId] ?? GENERATIONS.map(() => 0);
}

/** Every package's fields as they stood at the cause. */
export async function packagesAt(db: Executor, at: LogPosition): Promise<Map<number, PackageFields>> {
  const rows = await configEvents(db, at, sql<boolean>`e.type in ('PackageDefined', 'PackageUpdated')`);
  const packages = new Map<number, PackageFields>();
  for (const row of rows) {
    const id = Number(row.data.package_id);
    if (row.type === 'PackageDefined') packages.set(id, row.data as unknown as PackageFields);
    else packages.set(id, { ...(packages.get(id) as PackageFields), ...(row.data.changes as Partial<PackageFields>) });
  }
  return packages;
}

/** A member as it stood at the cause. */
export type MemberAtCause = {
  id: string;
  sponsorId: string | null;
  placementParentId: string | null;
  /** Registered at or before the cause (a member registered later is not in the tree yet). */
  registered: boolean;
  /** Activated (registration paid and approved) at or before the cause. */
  active: boolean;
  /** The package held at the cause: the registered one until activation, then the latest upgrade. */
  packageId: number;
  /**
   * Not active, and a registration payment awaited an admin's decision at the cause (a receipt,
   * or a card payment of another amount flagged to admins): its bonuses are held, not withheld.
   */
  pendingPaymentId: string | null;
};

/**
 * Members as they stood at the cause, in one statement: activity and registration by log position,
 * the package from the member row when it last changed at or before the cause (else from the
 * member's stream), and the registration payment awaiting a decision, read on its own stream.
 */
export async function membersAt(db: Executor, memberIds: readonly string[], at: LogPosition): Promise<Map<string, MemberAtCause>> {
  if (memberIds.length === 0) return new Map();
  const { rows } = await sql<{
    id: string;
    sponsor_id: string | null;
    placement_parent_id: string | null;
    registered: boolean;
    active: boolean;
    package_id: number;
    pending_payment_id: string | null;
  }>`
    select m.id, m.sponsor_id, m.placement_parent_id,
      ${memberFactBy('m', 'registered', at)} as registered,
      ${memberFactBy('m', 'activated', at)} as active,
      case when ${memberFactBy('m', 'package', at)} then m.package_id else (
        select coalesce((e.data->>'to_package_id')::int, (e.data->>'package_id')::int) from events e
        where e.stream_id = 'member-' || m.id and e.type in ('MemberRegistered', 'MemberActivated', 'MemberPackageUpgraded') and ${atOrBefore('e', at)}
        order by e.stream_position desc limit 1)
      end as package_id,
      case when ${memberFactBy('m', 'activated', at)} then null else (
        select pp.id from package_payments pp
        where pp.member_id = m.id and pp.purpose = 'registration'
          and exists (
            select 1 from events e where e.stream_id = 'package-payment-' || pp.id and ${atOrBefore('e', at)}
              and ((e.type = 'PackagePaymentInitiated' and e.data->>'method' = 'pop') or e.type = 'PackagePaymentAmountMismatched'))
          and not exists (
            select 1 from events e where e.stream_id = 'package-payment-' || pp.id and ${atOrBefore('e', at)}
              and e.type in ('PackagePaymentApproved', 'PackagePaymentDeclined', 'PackagePaymentNotApplied'))
          and not exists (
            select 1 from events e where e.stream_id = 'member-' || m.id and ${atOrBefore('e', at)}
              and e.type = 'MemberRegistrationExpired'
              and not exists (select 1 from events r where r.stream_id = e.stream_id and r.type = 'MemberReinstated'
                              and r.stream_position > e.stream_position and ${atOrBefore('r', at)}))
        order by pp.created_at desc limit 1)
      end as pending_payment_id
    from members m where m.id = any(${sql.val(memberIds)}::uuid[])`.execute(db);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        sponsorId: r.sponsor_id,
        placementParentId: r.placement_parent_id,
        registered: r.registered,
        active: r.active,
        packageId: r.package_id,
        pendingPaymentId: r.pending_payment_id,
      },
    ]),
  );
}

/** One member at the cause; undefined when unknown. */
export async function memberAt(db: Executor, memberId: string, at: LogPosition): Promise<MemberAtCause | undefined> {
  return (await membersAt(db, [memberId], at)).get(memberId);
}

/**
 * The sponsor chain (generation 1, the sponsor, to 10) as it stood at the cause. Sponsors never
 * change, so the chain is read from the members table and each upline judged at the cause.
 */
export async function sponsorChainAt(db: Executor, memberId: string, at: LogPosition): Promise<MemberAtCause[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive chain(id, generation) as (
      select sponsor_id, 1 from members where id = ${memberId} and sponsor_id is not null
      union all
      select m.sponsor_id, chain.generation + 1 from members m join chain on m.id = chain.id
      where chain.generation < 10 and m.sponsor_id is not null
    )
    select id from chain order by generation`.execute(db);
  const members = await membersAt(db, rows.map((r) => r.id), at);
  return rows.flatMap((r) => members.get(r.id) ?? []);
}

/** The placement children a member had at the cause (registered by then), each judged at the cause. */
export async function placementChildrenAt(db: Executor, memberId: string, at: LogPosition): Promise<Array<MemberAtCause & { leg: 'left' | 'right' }>> {
  const rows = await db
    .selectFrom('members as m')
    .select(['m.id', 'm.placement_leg'])
    .where('m.placement_parent_id', '=', memberId)
    .where(memberFactBy('m', 'registered', at))
    .orderBy('m.placement_leg')
    .execute();
  const members = await membersAt(db, rows.map((r) => r.id), at);
  return rows.flatMap((r) => {
    const member = members.get(r.id);
    return member && r.placement_leg ? [{ ...member, leg: r.placement_leg }] : [];
  });
}
