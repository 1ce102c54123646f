import { sql } from 'kysely';
import type { BonusKind } from '../compensation/events';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import { settingsOf } from '../settings/projections';
import { companyDate } from '../wallet/payout-schedule';
import { totalEarned } from '../contracts/earnings';
import { type ProfitPoolCandidate, dateOf, profitPoolCriteria, profitPoolPackageId, qualifiesForProfitPool } from './policies';

export const PER_PAGE = 10;

/** A member's credited shares of one kind, newest first, 10 a page (wallet_entries, from the ledger). */
async function sharesOf(db: Executor, memberId: string, kind: 'global_profit' | 'profit_pool', page: number) {
  const base = db.selectFrom('wallet_entries').where('member_id', '=', memberId).where('kind', '=', kind).where('entry', '=', 'credited');
  const { n } = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['global_position', 'amount', 'inputs', 'recorded_at'])
    .orderBy('recorded_at', 'desc')
    .orderBy('global_position', 'desc')
    .limit(PER_PAGE)
    .offset((page - 1) * PER_PAGE)
    .execute();
  const total = Number(n);
  return { rows, page: { current_page: page, last_page: Math.max(1, Math.ceil(total / PER_PAGE)), per_page: PER_PAGE, total } };
}

const inputOf = (inputs: unknown, name: string) => String((inputs as Record<string, unknown> | null)?.[name] ?? '');

/** GET /bonuses/{id}/global-profits (seed 000 §2.7 "global-profit table (profit, date)"). */
export async function globalProfitsOf(db: Executor, memberId: string, page: number) {
  const { rows, page: paging } = await sharesOf(db, memberId, 'global_profit', page);
  return {
    data: rows.map((r) => ({ id: r.global_position, profit: koboToNaira(r.amount), share_date: inputOf(r.inputs, 'share_date'), created_at: r.recorded_at.toISOString() })),
    ...paging,
  };
}

/** GET /bonuses/{id}/profit-pools: like global profits, with the month the pool was of. */
export async function profitPoolsOf(db: Executor, memberId: string, page: number) {
  const { rows, page: paging } = await sharesOf(db, memberId, 'profit_pool', page);
  return {
    data: rows.map((r) => ({ id: r.global_position, profit: koboToNaira(r.amount), amount: koboToNaira(r.amount), month: inputOf(r.inputs, 'month'), created_at: r.recorded_at.toISOString() })),
    ...paging,
  };
}

export const totalPeriods = ['all', 'today', 'month', 'year'] as const;
export type TotalPeriod = (typeof totalPeriods)[number];

/**
 * The first instant of the period containing `now`, on the company's calendar (Lagos, UTC+1, no
 * DST); null = all time. Shared by the admin dashboard's period-aware figures (the bonus totals
 * here, the pick-up stats).
 */
export function periodStart(period: TotalPeriod, now: Date): Date | null {
  const today = companyDate(now);
  const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const first = period === 'today' ? today : period === 'month' ? dateOf(year, month, 1) : period === 'year' ? dateOf(year, 1, 1) : null;
  return first ? new Date(`${first}T00:00:00+01:00`) : null;
}

/** Σ and count of the credited bonuses of some kinds across all members, in the period. */
export async function companyBonusTotal(db: Executor, kinds: readonly BonusKind[], period: TotalPeriod, now: Date) {
  let query = db
    .selectFrom('wallet_entries')
    .select([sql<string>`coalesce(sum(amount), 0)`.as('total'), (eb) => eb.fn.countAll<string>().as('n'), sql<string>`count(distinct member_id)`.as('members')])
    .where('entry', '=', 'credited')
    .where('kind', 'in', kinds);
  const start = periodStart(period, now);
  if (start) query = query.where('recorded_at', '>=', start);
  const row = await query.executeTakeFirstOrThrow();
  return { bonus: koboToNaira(Number(row.total)), count: Number(row.n), members: Number(row.members), type: period };
}

/** How many members a global profit share made now would be among (the admin dashboard's "eligible count"). */
export async function globalProfitEligibleCount(db: Executor): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from member_points p
    join ranks r on r.id = p.rank_id and r.is_global_profit_eligible
    join members m on m.id = p.member_id
    where m.activated_at is not null and not m.deactivated and not m.is_root`.execute(db);
  return rows[0]?.n ?? 0;
}

/**
 * GET /bonuses/bonus-stats?type= (admin dashboard, seed 001 §3.8): Σ credited per kind across all
 * members over the period (by when each bonus was credited), in naira, under the seeds'
 * `<name>_sum` names, and the global profit eligible count (as of now, whatever the period).
 */
export async function companyBonusStats(db: Executor, period: TotalPeriod, now: Date) {
  // From the ledger's daily totals (a row per company day and kind), not its lines: a period starts at a company midnight.
  let query = db
    .selectFrom('daily_bonus_totals')
    .select(['kind', sql<string>`sum(credited_kobo)`.as('total'), sql<string>`sum(credited_count)`.as('n')])
    .groupBy('kind');
  const start = periodStart(period, now);
  if (start) query = query.where('day', '>=', companyDate(start));
  const rows = await query.execute();
  const of = (...kinds: BonusKind[]) => koboToNaira(rows.filter((r) => kinds.includes(r.kind as BonusKind)).reduce((sum, r) => sum + Number(r.total), 0));
  const countOf = (...kinds: BonusKind[]) => rows.filter((r) => kinds.includes(r.kind as BonusKind)).reduce((sum, r) => sum + Number(r.n), 0);
  return {
    matching_bonus_sum: of('matching'),
    repurchase_bonus_sum: of('repurchase'),
    unilevel_bonus_sum: of('unilevel'),
    upgrade_bonus_sum: of('upgrade'),
    referral_bonus_sum: of('referral'),
    placement_bonus_sum: of('placement'),
    welcome_bonus_sum: of('welcome'),
    equilibrium_bonus_sum: of('equilibrium'),
    loyalty_bonus_sum: of('loyalty'),
    stockist_ref_bonus_sum: of('signee'),
    stockist_upline_bonus_sum: of('stockist_upline'),
    stockist_rebate_sum: of('stockist_rebate'),
    award_bonus_sum: of('award_sponsor', 'award_direct_downline'),
    global_profit_sum: of('global_profit'),
    profit_pool_sum: of('profit_pool'),
    total_bonus_sum: koboToNaira(totalEarned(rows.map((r) => ({ kind: r.kind, total: Number(r.total) })))),
    global_profit_count: countOf('global_profit'),
    profit_pool_count: countOf('profit_pool'),
    global_profit_eligible_count: await globalProfitEligibleCount(db),
    type: period,
  };
}

/**
 * The member dashboard's eligibility flags (seed 000 §4 "Eligibility", seed 001 §7), each true
 * when the rule that pays the bonus (BUSINESS-RULES.md §3) would count the member now:
 * - global_profit_qualified: the rank held is global-profit eligible (rank 5 and above in the seed);
 * - profit_pool_qualified: the profit pool's criteria (package, sponsored downlines, activation window);
 * - equilibrium_qualified: two placement children, both active (the seeds' "2 direct downlines");
 * - loyalty_qualified: the member's placement parent has two placement children (the seeds'
 *   "the upline has at least 2 direct downlines").
 */
export async function eligibilityFlags(db: Executor, memberId: string, now: Date) {
  const { rows } = await sql<EligibilityInputs>`${eligibilityInputs(memberId)}`.execute(db);
  return eligibilityFlagsOf(rows[0], now);
}

/** What the flags are decided from: one row per member (none for an unknown id). */
export type EligibilityInputs = {
  global_profit: boolean;
  active_children: number;
  parent_children: number;
  /** The company settings' values (null: not set up). */
  settings: unknown;
  package_ids: number[] | null;
  /** Active, not the root, on the profit-pool package: a profit-pool candidate (profitPoolCandidates' filter, as of now). */
  pool_candidate: boolean;
  package_id: number;
  activated_at: Date | null;
  /** Active members the member sponsored; counted for a profit-pool candidate only (null otherwise). */
  active_sponsored: number | null;
};

/**
 * The flags' inputs in one statement (the dashboard's bonus-stats was six: the member's counts,
 * the settings, the packages, the profit-pool candidate; compensation/queries.ts bonusStats adds the
 * bonus totals to it). The profit-pool package is the highest package id, as profitPoolPackageId
 * says: change both together.
 */
export const eligibilityInputs = (memberId: string) => sql<EligibilityInputs>`
  select
    (m.activated_at is not null and not m.deactivated and not m.is_root and exists (
      select 1 from member_points p join ranks r on r.id = p.rank_id and r.is_global_profit_eligible
      where p.member_id = m.id)) as global_profit,
    (select count(*)::int from members c where c.placement_parent_id = m.id and c.activated_at is not null and not c.deactivated) as active_children,
    (select count(*)::int from members c where m.placement_parent_id is not null and c.placement_parent_id = m.placement_parent_id) as parent_children,
    (select "values" from settings where id = 1) as settings,
    (select array_agg(id) from packages) as package_ids,
    pool.candidate as pool_candidate, m.package_id, m.activated_at,
    case when pool.candidate then (select count(*)::int from members d where d.sponsor_id = m.id and d.activated_at is not null and not d.deactivated) end as active_sponsored
  from members m
  cross join lateral (select m.activated_at is not null and not m.deactivated and not m.is_root
                             and m.package_id = (select max(id) from packages) as candidate) pool
  where m.id = ${memberId}`;

/** The flags from their inputs (eligibilityInputs' row; undefined: no such member, every flag false). */
export function eligibilityFlagsOf(row: EligibilityInputs | undefined, now: Date) {
  if (!row) return { global_profit_qualified: false, profit_pool_qualified: false, equilibrium_qualified: false, loyalty_qualified: false };
  const settings = settingsOf(row.settings);
  const packageId = profitPoolPackageId(row.package_ids ?? []);
  const candidate: ProfitPoolCandidate | undefined =
    row.pool_candidate && packageId !== null && row.package_id === packageId
      ? { id: '', package_id: row.package_id, active: true, activated_on: row.activated_at ? companyDate(row.activated_at) : null, active_sponsored: row.active_sponsored ?? 0 }
      : undefined;
  return {
    global_profit_qualified: row.global_profit,
    profit_pool_qualified: candidate !== undefined && packageId !== null && qualifiesForProfitPool(candidate, profitPoolCriteria(settings, packageId), companyDate(now)),
    equilibrium_qualified: row.active_children >= 2,
    loyalty_qualified: row.parent_children >= 2,
  };
}
