import { type RawBuilder, type Transaction, sql } from 'kysely';
import { batchRange } from '../core/batch-range';
import { type DailyTotals, eventKeys, keepingDailyTotals } from '../core/daily-totals';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';

/**
 * The admin dashboard's member figures, per Lagos day (core/daily-totals.ts, decision 88):
 * - `registered`: members but the company root, on the day each registered;
 * - `active`: members activated and not deactivated (the root too, as the active list counts it), on the day each activated;
 * - `pv`: every member, amount = registration PV (members.personal_pv), on the day each registered.
 * Only registrations, activations and upgrades change what a member contributes.
 */
export const memberTotals: DailyTotals = {
  table: 'daily_member_totals',
  contributions: (keys) => sql`
    select (case k.key when 'active' then m.activated_at else m.created_at end at time zone 'Africa/Lagos')::date as day, k.key,
      case k.key when 'pv' then m.personal_pv else 0 end as amount
    from members m cross join (values ('registered'), ('active'), ('pv')) as k(key)
    where m.id = any(${keys})
      and case k.key when 'registered' then not m.is_root when 'active' then m.activated_at is not null and not m.deactivated else true end`,
};

const COUNTED = ['MemberRegistered', 'MemberActivated', 'MemberPackageUpgraded'];

/** Runs a write of these events to `members`, moving the member totals by what it changed (nothing to do when no event can). */
export async function keepingMemberTotals(db: Executor, events: readonly RecordedEvent[], write: () => Promise<void>): Promise<void> {
  const counted = events.filter((recorded) => COUNTED.includes(recorded.type));
  if (counted.length === 0) return write();
  await keepingDailyTotals(db, memberTotals, eventKeys(counted, 'member_id'), write);
}

/** The same for a batch named by log positions (rebuilds' applyAt). */
export async function keepingMemberTotalsAt(trx: Transaction<Database>, positions: readonly number[], write: () => Promise<void>): Promise<void> {
  const keys: RawBuilder<unknown> = sql`array(select (data->>'member_id')::uuid from events
    where global_position = any(${sql.val(positions)}::bigint[]) and ${batchRange(positions)} and type = any(${sql.val(COUNTED)}::text[]))`;
  await keepingDailyTotals(trx, memberTotals, keys, write);
}

type Apply = (trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>;
type ApplyAt = (trx: Transaction<Database>, positions: readonly number[]) => Promise<void>;

/** A members read model's apply that also keeps the member totals (read-models.ts `members`). */
export const withMemberTotals = (apply: Apply): Apply => (trx, events) => keepingMemberTotals(trx, events, () => apply(trx, events));

/** Its applyAt, the same. */
export const withMemberTotalsAt = (applyAt: ApplyAt): ApplyAt => async (trx, positions) => {
  if (positions.length === 0) return;
  await keepingMemberTotalsAt(trx, positions, () => applyAt(trx, positions));
};

/** A member figure now, all days summed: how many members count under `key`, and (`pv`) their registration PV. */
export async function memberFigure(db: Executor, key: 'registered' | 'active' | 'pv'): Promise<{ n: number; amount: number }> {
  const row = await db
    .selectFrom('daily_member_totals')
    .select([sql<string>`coalesce(sum(n), 0)`.as('n'), sql<string>`coalesce(sum(amount), 0)`.as('amount')])
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return { n: Number(row.n), amount: Number(row.amount) };
}
