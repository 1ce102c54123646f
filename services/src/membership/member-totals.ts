import { sql } from 'kysely';
import { type DailyTotals, amongKeys } from '../core/daily-totals';
import type { Executor } from '../core/db';

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
    where ${amongKeys('m.id', keys)}
      and case k.key when 'registered' then not m.is_root when 'active' then m.activated_at is not null and not m.deactivated else true end`,
  changedBy: { eventTypes: ['MemberRegistered', 'MemberActivated', 'MemberPackageUpgraded'], keyField: 'member_id' },
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
