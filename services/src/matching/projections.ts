import { type Transaction, sql } from 'kysely';
import { type BonusCause, bonusKey, walletStream } from '../compensation/events';
import type { Executor } from '../core/db';
import { type EventMetadata, type RecordedEvent, appendToStreams, streamVersion } from '../core/event-store';
import { memberFactBy, membersAt, packagesAt } from '../compensation/facts-at-cause';
import type { Database } from '../database';
import {
  type MatchingCycleClosed,
  type MatchingCycleSettled,
  type MatchingEvent,
  type MatchingOutcome,
  type MatchingOutcomesRecorded,
  matchingOutcomesStream,
} from './events';
import {
  type MatchingMember,
  type MatchingResult,
  type MatchingTerms,
  carryAfter,
  cycleSettlement,
  matchingBonus,
  matchingOutcome,
  outcomeRows,
} from './policies';

type Trx = Transaction<Database>;

/** Inline projection of MatchingCycleClosed: the cycle's row, its totals filled in by the policy. */
export async function projectMatchingCycles(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    if (recorded.type !== 'MatchingCycleClosed') continue;
    const d = (recorded as RecordedEvent<MatchingCycleClosed>).data;
    await db
      .insertInto('matching_cycles')
      .values({
        cycle_end: d.cycle_end,
        frequency_days: d.frequency_days,
        total_pv: d.total_pv,
        percent: d.percent,
        unit_point_value_kobo: d.unit_point_value_kobo,
        closed_at: new Date(recorded.recordedAt),
        closed_by: JSON.stringify(recorded.metadata.actor),
      })
      .onConflict((oc) => oc.column('cycle_end').doNothing())
      .execute();
  }
}

type CandidateRow = {
  id: string;
  left_pv: number;
  right_pv: number;
  consumed_left: number;
  consumed_right: number;
  seen_left: number;
  seen_right: number;
  active: boolean;
  payment_pending: boolean;
  left_child_active: boolean;
  right_child_active: boolean;
  package_id: number;
};

/**
 * Every member with at least one pair's worth of volume left, in one query, as things stood at the
 * close: the leg volumes are member_points as the `points` policy holds them when it reaches the
 * close in the log (it pays the cycle there, so PV recorded after the close is not in them yet), less
 * what earlier cycles consumed; activity, children and package are judged at the close's position.
 */
async function candidates(trx: Trx, totalPv: number, close: RecordedEvent): Promise<CandidateRow[]> {
  const childActive = (leg: 'left' | 'right') =>
    sql<boolean>`exists (select 1 from members k where k.placement_parent_id = m.id and k.placement_leg = ${leg} and ${memberFactBy('k', 'activated', close)})`;
  const { rows } = await sql<Omit<CandidateRow, 'payment_pending'> & { package_at_close: boolean }>`
    select mp.member_id as id, mp.left_pv, mp.right_pv,
      coalesce(c.consumed_left, 0) as consumed_left, coalesce(c.consumed_right, 0) as consumed_right,
      coalesce(c.seen_left, 0) as seen_left, coalesce(c.seen_right, 0) as seen_right,
      ${memberFactBy('m', 'activated', close)} as active,
      ${childActive('left')} as left_child_active,
      ${childActive('right')} as right_child_active,
      m.package_id, ${memberFactBy('m', 'package', close)} as package_at_close
    from member_points mp
    join members m on m.id = mp.member_id
    left join matching_carry c on c.member_id = mp.member_id
    where least(mp.left_pv - coalesce(c.consumed_left, 0), mp.right_pv - coalesce(c.consumed_right, 0)) >= ${totalPv}`.execute(trx);
  // The few not active at the close, or upgraded since: their pending payment and package at the close.
  const facts = await membersAt(trx, rows.filter((r) => !r.active || !r.package_at_close).map((r) => r.id), close);
  return rows.map(({ package_at_close: _, ...r }) => {
    const atClose = facts.get(r.id);
    return { ...r, package_id: atClose?.packageId ?? r.package_id, payment_pending: atClose?.pendingPaymentId != null };
  });
}

/** Keys per insert when reserving: one statement each, a modest array each. */
const RESERVE_CHUNK = 5000;

/** Reserves many bonus keys set-based; answers the ones this call reserved (not reserved before). */
async function reserveBonusKeys(trx: Trx, keys: readonly string[], owner: string): Promise<Set<string>> {
  const reserved = new Set<string>();
  for (let start = 0; start < keys.length; start += RESERVE_CHUNK) {
    const { rows } = await sql<{ key: string }>`
      insert into unique_keys (scope, key, owner)
      select 'bonus', key, ${owner} from unnest(${sql.val(keys.slice(start, start + RESERVE_CHUNK))}::text[]) as k(key)
      on conflict do nothing returning key`.execute(trx);
    for (const row of rows) reserved.add(row.key);
  }
  return reserved;
}

/** Outcome events per append: each append statement then carries a few MB, not a whole 1,000,000-member cycle. */
const OUTCOME_EVENTS_PER_APPEND = 25;

/**
 * Pays one closed cycle: decide every candidate on the facts at the close, record each paid
 * member's bonus once, then record every considered member's outcome and the cycle's totals
 * (MatchingOutcomesRecorded, MatchingCycleSettled) and project them into matching_results,
 * matching_carry and matching_cycles with the same function a rebuild uses (projectMatching), so
 * the policy's tables are what the log says by construction. Called by the `points` policy when
 * it reaches the close in the log: its leg volumes are then exactly those standing at the close,
 * however the consumers interleave. Take lockAllStreamsForBulkAppend first.
 */
export async function payMatchingCycle(trx: Trx, recorded: RecordedEvent<MatchingCycleClosed>): Promise<void> {
  const terms: MatchingTerms = recorded.data;
  const cause: BonusCause = { event_id: recorded.eventId, event_type: recorded.type, stream_id: recorded.streamId, member_id: null };
  await projectMatchingCycles(trx, [recorded]);
  const caps = new Map([...(await packagesAt(trx, recorded)).entries()].map(([id, p]) => [id, p.matching_bonus_cap_kobo]));

  const decided: Array<{ result: MatchingResult; outcome: MatchingOutcome }> = [];
  for (const row of await candidates(trx, terms.total_pv, recorded)) {
    const member: MatchingMember = {
      id: row.id,
      active: row.active,
      paymentPending: row.payment_pending,
      leftChildActive: row.left_child_active,
      rightChildActive: row.right_child_active,
      capKobo: caps.get(row.package_id) ?? 0,
      carriedLeft: row.seen_left - row.consumed_left,
      carriedRight: row.seen_right - row.consumed_right,
      newLeft: row.left_pv - row.seen_left,
      newRight: row.right_pv - row.seen_right,
    };
    const result = matchingBonus(member, terms, cause);
    const outcome = matchingOutcome(member, result, { left: row.left_pv, right: row.right_pv });
    if (outcome) decided.push({ result, outcome });
  }
  // One key per member and cycle (a capped bonus's credited and withheld parts share it; a member
  // who did not qualify takes one too): a re-run of the cycle, or a rebuild, records nothing twice.
  const keyOf = (memberId: string) => bonusKey({ cause, beneficiary_id: memberId, kind: 'matching', generation: null });
  const reserved = await reserveBonusKeys(trx, decided.map((d) => keyOf(d.outcome.member_id)), recorded.eventId);
  const fresh = decided.filter((d) => reserved.has(keyOf(d.outcome.member_id)));

  const metadata: EventMetadata = {
    actor: { type: 'system', id: 'matching' },
    now: recorded.recordedAt,
    causation_id: recorded.eventId,
    correlation_id: recorded.metadata.correlation_id ?? recorded.eventId,
  };
  const paid = fresh.filter((d) => d.result.decisions.length > 0);
  await appendToStreams(trx, paid.map((d) => ({ streamId: walletStream(d.outcome.member_id), events: d.result.decisions })), { metadata });

  // The outcomes once per payment: a re-run that finds nobody new records nothing more, but the
  // first payment of a cycle is recorded even with nobody in it (it marks the cycle paid).
  const stream = matchingOutcomesStream(terms.cycle_end);
  if (fresh.length === 0 && (await streamVersion(trx, stream)).version > 0) return;
  const { recorded: outcomes, settled } = cycleSettlement(terms.cycle_end, fresh.map((d) => d.outcome));
  const events: MatchingEvent[] = [...outcomes, settled];
  for (let start = 0; start < events.length; start += OUTCOME_EVENTS_PER_APPEND) {
    const appended = await appendToStreams(trx, [{ streamId: stream, events: events.slice(start, start + OUTCOME_EVENTS_PER_APPEND) }], { metadata });
    await projectMatching(trx, appended);
  }
}

/**
 * The `matching` read model (read-models.ts): matching_cycles from MatchingCycleClosed (the row,
 * inline with the close) and MatchingCycleSettled (paid_at and the totals, added: a later payment
 * of the same cycle adds its own members), matching_results and matching_carry from
 * MatchingOutcomesRecorded. Live, the close command and the points policy call it in the
 * transactions that append these events; a rebuild replays them in log order.
 */
export async function projectMatching(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    if (recorded.type === 'MatchingCycleClosed') await projectMatchingCycles(db, [recorded]);
    else if (recorded.type === 'MatchingOutcomesRecorded') await projectOutcomes(db, recorded as RecordedEvent<MatchingOutcomesRecorded>);
    else if (recorded.type === 'MatchingCycleSettled') await projectSettlement(db, recorded as RecordedEvent<MatchingCycleSettled>);
  }
}

/** Each member's result row (kept if already there) and carry after the cycle (replaced), set-based. */
async function projectOutcomes(db: Executor, recorded: RecordedEvent<MatchingOutcomesRecorded>): Promise<void> {
  const { cycle_end: cycleEnd, columns: c } = recorded.data;
  if (c.member_id.length === 0) return;
  await sql`
    insert into matching_results (cycle_end, member_id, outcome, reason, left_pv, right_pv, pairs, credited_kobo, withheld_kobo, carried_left, carried_right)
    select ${cycleEnd}::date, member_id, outcome, reason, left_pv, right_pv, pairs, credited, withheld, carried_left, carried_right
    from unnest(${sql.val(c.member_id)}::uuid[], ${sql.val(c.outcome)}::text[], ${sql.val(c.reason)}::text[],
                ${sql.val(c.left_pv)}::bigint[], ${sql.val(c.right_pv)}::bigint[], ${sql.val(c.pairs)}::bigint[],
                ${sql.val(c.credited_kobo)}::bigint[], ${sql.val(c.withheld_kobo)}::bigint[],
                ${sql.val(c.carried_left)}::bigint[], ${sql.val(c.carried_right)}::bigint[])
      as t(member_id, outcome, reason, left_pv, right_pv, pairs, credited, withheld, carried_left, carried_right)
    on conflict (cycle_end, member_id) do nothing`.execute(db);
  const carry = outcomeRows(c).map(carryAfter);
  await sql`
    insert into matching_carry (member_id, consumed_left, consumed_right, seen_left, seen_right, last_cycle_end, updated_at)
    select member_id, consumed_left, consumed_right, seen_left, seen_right, ${cycleEnd}::date, ${recorded.recordedAt}::timestamptz
    from unnest(${sql.val(c.member_id)}::uuid[], ${sql.val(carry.map((r) => r.consumed_left))}::bigint[], ${sql.val(carry.map((r) => r.consumed_right))}::bigint[],
                ${sql.val(c.seen_left)}::bigint[], ${sql.val(c.seen_right)}::bigint[])
      as t(member_id, consumed_left, consumed_right, seen_left, seen_right)
    on conflict (member_id) do update set
      consumed_left = excluded.consumed_left, consumed_right = excluded.consumed_right,
      seen_left = excluded.seen_left, seen_right = excluded.seen_right,
      last_cycle_end = excluded.last_cycle_end, updated_at = excluded.updated_at`.execute(db);
}

/** The cycle's totals: added (a later payment of the cycle adds its own), paid_at the first payment's. */
async function projectSettlement(db: Executor, recorded: RecordedEvent<MatchingCycleSettled>): Promise<void> {
  const d = recorded.data;
  await sql`
    update matching_cycles set
      paid_at = coalesce(paid_at, ${recorded.recordedAt}::timestamptz),
      members_matched = members_matched + ${d.members_matched},
      members_capped = members_capped + ${d.members_capped},
      members_not_qualified = members_not_qualified + ${d.members_not_qualified},
      pairs = pairs + ${d.pairs},
      credited_kobo = credited_kobo + ${d.credited_kobo},
      withheld_kobo = withheld_kobo + ${d.withheld_kobo}
    where cycle_end = ${d.cycle_end}::date`.execute(db);
}

/**
 * The `matching` read model's refusal: cycles paid before their outcomes were recorded in the log
 * (MatchingOutcomesRecorded, from 2026-11-28 on) have their results and carry in the tables only,
 * so a rebuild would lose them, and the carry the next cycle pays from. The rebuild then changes
 * nothing and says which cycles (docs/operations.md, "Matching cycles paid before their outcomes
 * were recorded").
 */
export async function cyclesPaidWithoutOutcomes(db: Executor): Promise<string | null> {
  const { rows } = await sql<{ cycle_end: string }>`
    select c.cycle_end::text as cycle_end from matching_cycles c
    where c.paid_at is not null
      and not exists (select 1 from events e where e.stream_id = 'matching-outcomes-' || c.cycle_end::text)
    order by c.cycle_end`.execute(db);
  if (rows.length === 0) return null;
  const cycles = rows.map((r) => r.cycle_end);
  return `the matching cycles ${cycles.slice(0, 5).join(', ')}${cycles.length > 5 ? ` and ${cycles.length - 5} more` : ''} were paid before their outcomes were recorded in the log; restore matching_cycles, matching_results and matching_carry from the backup taken with the log (docs/operations.md)`;
}
