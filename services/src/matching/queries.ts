import { sql } from 'kysely';
import type { MatchingStatus, RunActor } from '../contracts/matching';
import type { Executor } from '../core/db';
import { koboToNaira, percentOf } from '../core/money';
import { getSettings } from '../settings/projections';
import { companyDate } from '../wallet/payout-schedule';
import { lastClosedCycle } from './commands';
import { MATCHING_EPOCH, dueCycleEnds } from './policies';

/**
 * Reads of the matching cycles for the back office and the member's own matching explanation
 * (issue 14 items 3 and 5). Kobo inside, naira out.
 */

// ---------------------------------------------------------------------------------------------
// Who ran it

/** Names the schedule's system actors say in words. */
const systemNames: Record<string, string> = {
  'matching-schedule': 'Schedule',
  'global-profit': 'Schedule',
  'profit-pool': 'Schedule',
};

/**
 * SQL for an actor (jsonb `{type, id}`) joined to the admin it names: `<alias>.actor_type`,
 * `actor_id`, `actor_name`, `actor_email`. Compared as text, so a malformed id joins nothing.
 */
export const actorColumns = (actor: ReturnType<typeof sql>, alias: string) => sql`
  ${actor}->>'type' as ${sql.ref(`${alias}_type`)}, ${actor}->>'id' as ${sql.ref(`${alias}_id`)},
  (select a.name from admins a where ${actor}->>'type' = 'admin' and a.id::text = ${actor}->>'id') as ${sql.ref(`${alias}_name`)},
  (select a.email from admins a where ${actor}->>'type' = 'admin' and a.id::text = ${actor}->>'id') as ${sql.ref(`${alias}_email`)}`;

export function runActor(type: string | null, id: string | null, name: string | null, email: string | null): RunActor {
  const kind = (['system', 'admin', 'member', 'anonymous'] as const).find((k) => k === type) ?? 'system';
  if (kind === 'admin') return { type: kind, id, name: name ?? 'Administrator (removed)', email };
  if (kind === 'system') return { type: kind, id, name: systemNames[id ?? ''] ?? `System (${id ?? 'unknown'})`, email: null };
  return { type: kind, id, name: kind === 'member' ? 'Member' : 'Unknown', email: null };
}

// ---------------------------------------------------------------------------------------------
// Reasons in words

/** A result's reason in words, for the back office and the member (null when fully paid). */
export function matchingReasonText(outcome: string, reason: string | null): string | null {
  if (outcome === 'capped') return "Paid up to the package's matching cap for the cycle; the rest was withheld.";
  if (outcome !== 'not_qualified') return null;
  switch (reason) {
    case 'inactive':
      return 'Not active when the cycle closed: nothing was paid and the legs carry to the next cycle.';
    case 'no_second_leg':
      return 'Needs an active placement child on each leg: nothing was paid and the legs carry to the next cycle.';
    case 'payment_pending':
      return 'The registration payment was still awaiting approval: nothing was paid and the legs carry to the next cycle.';
    default:
      return 'Did not qualify at the close: the legs carry to the next cycle.';
  }
}

// ---------------------------------------------------------------------------------------------
// The cycle calendar

const DAY_MS = 86_400_000;
const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * The next cycle to close, seen from `today` (Lagos): a cycle that ended and is not closed yet
 * (the hourly schedule closes it shortly), else the cycle running today, on the grid of
 * policies.ts (cycles counted from MATCHING_EPOCH every `frequencyDays`, named by their last day).
 * It closes at the midnight (Lagos, UTC+1) after its last day.
 */
export function nextCycle(input: { today: string; frequencyDays: number; lastClosed: string | null }): { cycleEnd: string; closesAt: string } {
  const due = dueCycleEnds(input)[0];
  const f = Math.max(1, input.frequencyDays);
  const k = Math.max(1, Math.floor((dayNumber(input.today) - dayNumber(MATCHING_EPOCH)) / f) + 1);
  const cycleEnd = due ?? dateOfDay(dayNumber(MATCHING_EPOCH) + k * f - 1);
  const closesAt = new Date(`${dateOfDay(dayNumber(cycleEnd) + 1)}T00:00:00+01:00`).toISOString();
  return { cycleEnd, closesAt };
}

// ---------------------------------------------------------------------------------------------
// The member's own matching explanation

const pv = (n: number) => `${n.toLocaleString('en-US')} PV`;
const naira = (kobo: number) => `₦${koboToNaira(kobo).toLocaleString('en-US')}`;
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

type StatusRow = {
  left_pv: string;
  right_pv: string;
  active: boolean;
  left_child_active: boolean;
  right_child_active: boolean;
  cap_kobo: string;
};

/** GET /bonuses/matching-status: the member's standing legs, what they make now, the last result and the next close. */
export async function matchingStatus(db: Executor, memberId: string, now: Date): Promise<MatchingStatus> {
  const settings = await getSettings(db);
  const { rows } = await sql<StatusRow>`
    select
      greatest(coalesce(mp.left_pv, 0) - coalesce(c.consumed_left, 0), 0)::text as left_pv,
      greatest(coalesce(mp.right_pv, 0) - coalesce(c.consumed_right, 0), 0)::text as right_pv,
      (m.activated_at is not null and not m.deactivated) as active,
      exists (select 1 from members k where k.placement_parent_id = m.id and k.placement_leg = 'left'
              and k.activated_at is not null and not k.deactivated) as left_child_active,
      exists (select 1 from members k where k.placement_parent_id = m.id and k.placement_leg = 'right'
              and k.activated_at is not null and not k.deactivated) as right_child_active,
      coalesce(p.matching_bonus_cap, 0)::text as cap_kobo
    from members m
    left join member_points mp on mp.member_id = m.id
    left join matching_carry c on c.member_id = m.id
    left join packages p on p.id = m.package_id
    where m.id = ${memberId}`.execute(db);
  const row = rows[0] ?? { left_pv: '0', right_pv: '0', active: false, left_child_active: false, right_child_active: false, cap_kobo: '0' };
  const left = Number(row.left_pv);
  const right = Number(row.right_pv);
  const pairPv = settings.matching_bonus_total_pv;
  const pairs = pairPv > 0 ? Math.floor(Math.min(left, right) / pairPv) : 0;
  const bonusKobo = percentOf(pairs * pairPv * settings.unit_point_value_kobo, settings.matching_bonus_percent);
  const capKobo = Number(row.cap_kobo);
  const payableKobo = capKobo > 0 ? Math.min(bonusKobo, capKobo) : bonusKobo;
  const notQualified = !row.active ? 'inactive' : !row.left_child_active || !row.right_child_active ? 'no_second_leg' : null;

  const lastClosed = await lastClosedCycle(db);
  const next = nextCycle({ today: companyDate(now), frequencyDays: settings.matching_bonus_frequency, lastClosed });

  let summary: string;
  if (pairPv <= 0) summary = 'The matching bonus is switched off for now.';
  else if (pairs === 0) {
    const shortLeft = Math.max(0, pairPv - left);
    const shortRight = Math.max(0, pairPv - right);
    const needs = [shortLeft > 0 ? `${pv(shortLeft)} more on your left leg` : null, shortRight > 0 ? `${pv(shortRight)} more on your right leg` : null].filter(Boolean).join(' and ');
    summary = `A pair needs ${pv(pairPv)} on each leg: ${needs} will make one.`;
  } else {
    const capped = payableKobo < bonusKobo ? ` (your package's cap of ${naira(capKobo)} a cycle applies)` : '';
    summary = `Your legs make ${plural(pairs, 'pair', 'pairs')} now: ${naira(payableKobo)} at the close of the cycle ending ${next.cycleEnd}${capped}.`;
  }
  if (notQualified === 'inactive') summary += ' You are not active, so nothing is paid; your volume keeps until you are.';
  else if (notQualified === 'no_second_leg') summary += ' To be paid you need an active member placed directly on each of your legs; your volume keeps until then.';

  return {
    left_pv: left,
    right_pv: right,
    pair_pv: pairPv,
    pairs_now: pairs,
    percent: settings.matching_bonus_percent,
    unit_point_value: koboToNaira(settings.unit_point_value_kobo),
    bonus_now: koboToNaira(bonusKobo),
    cap: koboToNaira(capKobo),
    payable_now: koboToNaira(notQualified ? 0 : payableKobo),
    qualified: notQualified === null,
    not_qualified_reason: notQualified,
    summary,
    next_cycle_end: next.cycleEnd,
    next_close_at: next.closesAt,
    frequency_days: settings.matching_bonus_frequency,
    last_cycle: await lastCycleResult(db, memberId, lastClosed),
  };
}

/** Why a member was not paid, said to them. */
const memberReasons: Record<string, string> = {
  inactive: 'you were not active when it closed',
  no_second_leg: 'you needed an active member placed directly on each of your legs',
  payment_pending: 'your registration payment was still awaiting approval',
};

/** The member's result at the latest closed cycle, or 'no_pair' when the cycle found no pair's worth of volume. */
async function lastCycleResult(db: Executor, memberId: string, lastClosed: string | null): Promise<MatchingStatus['last_cycle']> {
  if (lastClosed === null) return null;
  const result = await db
    .selectFrom('matching_results')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('cycle_end', '=', lastClosed)
    .executeTakeFirst();
  if (!result) {
    return {
      cycle_end: lastClosed,
      outcome: 'no_pair',
      reason: null,
      left_pv: 0,
      right_pv: 0,
      pairs: 0,
      credited: 0,
      withheld: 0,
      carried_left: 0,
      carried_right: 0,
      text: `No pair at the cycle ending ${lastClosed}: your volume carries on.`,
    };
  }
  const r = { ...result, left_pv: Number(result.left_pv), right_pv: Number(result.right_pv), pairs: Number(result.pairs), credited_kobo: Number(result.credited_kobo), withheld_kobo: Number(result.withheld_kobo), carried_left: Number(result.carried_left), carried_right: Number(result.carried_right) };
  const carried = `${pv(r.carried_left)} left and ${pv(r.carried_right)} right carried forward.`;
  const head = `Cycle ending ${lastClosed}: ${plural(r.pairs, 'pair', 'pairs')}`;
  const text =
    r.outcome === 'paid'
      ? `${head}, ${naira(r.credited_kobo)} paid. ${carried}`
      : r.outcome === 'capped'
        ? `${head}, ${naira(r.credited_kobo)} paid up to your package's cap (${naira(r.withheld_kobo)} above it not paid). ${carried}`
        : `${head}, nothing paid: ${memberReasons[r.reason ?? ''] ?? 'you did not qualify when it closed'}. ${carried}`;
  return {
    cycle_end: lastClosed,
    outcome: r.outcome,
    reason: r.reason,
    left_pv: r.left_pv,
    right_pv: r.right_pv,
    pairs: r.pairs,
    credited: koboToNaira(r.credited_kobo),
    withheld: koboToNaira(r.withheld_kobo),
    carried_left: r.carried_left,
    carried_right: r.carried_right,
    text,
  };
}
