import { sql } from 'kysely';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import { type EligibilityInputs, eligibilityFlagsOf, eligibilityInputs } from '../profit-sharing/queries';
import type { BonusKind } from './events';
import { bonusLabel, explain } from './explanations';
import { totalEarned } from '../contracts/earnings';

/** Σ credited bonuses of some kinds for a member, in naira. */
export async function bonusTotal(db: Executor, memberId: string, kinds?: readonly BonusKind[]): Promise<number> {
  let query = db.selectFrom('wallet_entries').select(sql<string>`coalesce(sum(amount), 0)`.as('total')).where('member_id', '=', memberId).where('entry', '=', 'credited');
  if (kinds) query = query.where('kind', 'in', kinds);
  const row = await query.executeTakeFirstOrThrow();
  return koboToNaira(Number(row.total));
}

export async function walletOf(db: Executor, memberId: string) {
  const row = await db.selectFrom('wallets').selectAll().where('member_id', '=', memberId).executeTakeFirst();
  return {
    total_bonus: koboToNaira(row?.total_bonus ?? 0),
    total_withheld: koboToNaira(row?.total_withheld ?? 0),
    total_held: koboToNaira(row?.total_held ?? 0),
    total_withdrawn: koboToNaira(row?.total_withdrawn ?? 0),
    total_spent: koboToNaira(row?.total_spent ?? 0),
    balance: koboToNaira(row?.balance ?? 0),
  };
}

/** Per-kind totals the dashboard cards read (seed 000 §3 "User bonus stats"), and the eligibility flags. */
export async function bonusStats(db: Executor, memberId: string, now: Date = new Date()) {
  // One statement: the totals per kind (index-only, wallet_entries_credited_totals) and the
  // eligibility flags' inputs (no row for an unknown member: the flags are then false).
  const { rows: read } = await sql<{ totals: Array<{ kind: string; total: string }> } & Partial<EligibilityInputs>>`
    select t.totals, f.*
    from (select coalesce(jsonb_agg(jsonb_build_object('kind', kind, 'total', total::text)), '[]') as totals
          from (select kind, sum(amount) as total from wallet_entries where member_id = ${memberId} and entry = 'credited' group by kind) k) t
    left join lateral (${eligibilityInputs(memberId)}) f on true`.execute(db);
  const { totals: rows, ...inputs } = read[0]!;
  const flags = eligibilityFlagsOf(inputs.package_id === undefined || inputs.package_id === null ? undefined : (inputs as EligibilityInputs), now);
  const of = (...kinds: BonusKind[]) => koboToNaira(rows.filter((r) => kinds.includes(r.kind as BonusKind)).reduce((sum, r) => sum + Number(r.total), 0));
  return {
    matching_bonus: of('matching'),
    repurchase_bonus: of('repurchase'),
    unilevel_bonus: of('unilevel'),
    upgrade_bonus: of('upgrade'),
    stockist_ref_bonus: of('signee'),
    award_bonus: of('award_sponsor', 'award_direct_downline'),
    referral_bonus: of('referral'),
    placement_bonus: of('placement'),
    welcome_bonus: of('welcome'),
    equilibrium_bonus: of('equilibrium'),
    loyalty_bonus: of('loyalty'),
    global_profit: of('global_profit'),
    profit_pool: of('profit_pool'),
    stockist_upline_bonus: of('stockist_upline'),
    stockist_rebate: of('stockist_rebate'),
    /**
     * Every kind credited (contracts/earnings.ts), as the wallet's total bonus: the seeds' sum left
     * out welcome, equilibrium, loyalty, profit-pool, award and stockist bonuses (issue 11).
     */
    total_wallet_earned: koboToNaira(totalEarned(rows.map((r) => ({ kind: r.kind, total: Number(r.total) })))),
    ...flags,
  };
}

/**
 * Bonuses held for a member while their registration payment awaits an admin's decision (BUSINESS-
 * RULES.md §3 "Trees"): the total and each line with its cause, newest first.
 */
export async function heldBonuses(db: Executor, memberId: string) {
  const rows = await db
    .selectFrom('wallet_entries as w')
    .leftJoin('members as c', 'c.id', 'w.cause_member_id')
    .select(['w.global_position', 'w.entry', 'w.kind', 'w.amount', 'w.generation', 'w.reason', 'w.cause_type', 'w.inputs', 'w.recorded_at', 'c.username as cause_username'])
    .where('w.member_id', '=', memberId)
    .where('w.entry', '=', 'held')
    .where('w.resolution', 'is', null)
    .orderBy('w.global_position', 'desc')
    .execute();
  return {
    total_held: koboToNaira(rows.reduce((sum, r) => sum + r.amount, 0)),
    count: rows.length,
    lines: rows.map((r) => ({
      id: r.global_position,
      type: bonusLabel(r.kind),
      kind: r.kind,
      amount: koboToNaira(r.amount),
      generation: r.generation,
      cause_username: r.cause_username,
      explanation: explain(r),
      created_at: r.recorded_at.toISOString(),
    })),
  };
}

/**
 * The wallet's bonus table (seed 000 §2.7): newest first, 10 per page, each row saying why it was
 * paid (the cause: whose activation, upgrade...; generation; formula) or why it was not. A held
 * bonus shows as held until its payment is decided; then the line that settled it takes its place.
 */
export async function bonusPage(db: Executor, memberId: string, page: number, perPage = 10) {
  const totalRow = await db
    .selectFrom('wallet_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('member_id', '=', memberId)
    .where((eb) => eb.or([eb('entry', '!=', 'held'), eb('resolution', 'is', null)]))
    .executeTakeFirstOrThrow();
  const total = Number(totalRow.n);
  const rows = await db
    .selectFrom('wallet_entries as w')
    .leftJoin('members as c', 'c.id', 'w.cause_member_id')
    .select(['w.global_position', 'w.entry', 'w.kind', 'w.amount', 'w.generation', 'w.reason', 'w.cause_type', 'w.inputs', 'w.recorded_at', 'w.settles_hold', 'c.username as cause_username'])
    .where('w.member_id', '=', memberId)
    .where((eb) => eb.or([eb('w.entry', '!=', 'held'), eb('w.resolution', 'is', null)]))
    .orderBy('w.recorded_at', 'desc')
    .orderBy('w.global_position', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return {
    data: rows.map((r) => ({
      id: r.global_position,
      type: bonusLabel(r.kind),
      kind: r.kind,
      entry: r.entry,
      amount: koboToNaira(r.amount),
      generation: r.generation,
      cause: r.cause_type,
      cause_username: r.cause_username,
      explanation: explain(r),
      inputs: r.inputs as Record<string, unknown>,
      created_at: r.recorded_at.toISOString(),
    })),
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    total,
  };
}
