import { type Transaction, sql } from 'kysely';
import { type BonusCause, type CompensationEvent, bonusKey, walletStream } from '../compensation/events';
import type { Executor } from '../core/db';
import { type EventMetadata, type RecordedEvent, appendToStreams } from '../core/event-store';
import { memberFactBy, membersAt, packagesAt } from '../compensation/facts-at-cause';
import type { Database } from '../database';
import type { MatchingCycleClosed } from './events';
import { type MatchingMember, type MatchingResult, type MatchingTerms, matchingBonus } from './policies';

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

type Decided = { row: CandidateRow; result: MatchingResult };

/**
 * Each considered member's carry: consumed grows by the pairs' PV (0 for a member who did not
 * qualify: the volume carries whole), seen is the volume standing at the close.
 */
async function saveCarry(trx: Trx, decided: readonly Decided[], cycleEnd: string, at: string): Promise<void> {
  if (decided.length === 0) return;
  const column = (pick: (m: Decided) => number) => sql.val(decided.map(pick));
  await sql`
    insert into matching_carry (member_id, consumed_left, consumed_right, seen_left, seen_right, last_cycle_end, updated_at)
    select member_id, consumed_left, consumed_right, seen_left, seen_right, ${cycleEnd}::date, ${at}::timestamptz
    from unnest(${sql.val(decided.map((m) => m.row.id))}::uuid[], ${column((m) => m.row.consumed_left + m.result.consumedPv)}::bigint[],
                ${column((m) => m.row.consumed_right + m.result.consumedPv)}::bigint[], ${column((m) => m.row.left_pv)}::bigint[],
                ${column((m) => m.row.right_pv)}::bigint[])
      as t(member_id, consumed_left, consumed_right, seen_left, seen_right)
    on conflict (member_id) do update set
      consumed_left = excluded.consumed_left, consumed_right = excluded.consumed_right,
      seen_left = excluded.seen_left, seen_right = excluded.seen_right,
      last_cycle_end = excluded.last_cycle_end, updated_at = excluded.updated_at`.execute(trx);
}

/** Each considered member's result in the cycle: paid, capped, or not qualified with why and what carries. */
async function saveResults(trx: Trx, decided: readonly Decided[], cycleEnd: string): Promise<void> {
  if (decided.length === 0) return;
  const amount = (d: Decided, type: CompensationEvent['type']) => d.result.decisions.filter((e) => e.type === type).reduce((sum, e) => sum + e.data.amount_kobo, 0);
  const column = <T>(pick: (d: Decided) => T) => sql.val(decided.map(pick));
  await sql`
    insert into matching_results (cycle_end, member_id, outcome, reason, left_pv, right_pv, pairs, credited_kobo, withheld_kobo, carried_left, carried_right)
    select ${cycleEnd}::date, member_id, outcome, reason, left_pv, right_pv, pairs, credited, withheld, left_pv - consumed, right_pv - consumed
    from unnest(${column((d) => d.row.id)}::uuid[], ${column((d) => d.result.outcome)}::text[], ${column((d) => d.result.reason)}::text[],
                ${column((d) => d.row.left_pv - d.row.consumed_left)}::bigint[], ${column((d) => d.row.right_pv - d.row.consumed_right)}::bigint[],
                ${column((d) => d.result.pairs)}::bigint[], ${column((d) => amount(d, 'BonusCredited'))}::bigint[],
                ${column((d) => amount(d, 'BonusWithheld'))}::bigint[], ${column((d) => d.result.consumedPv)}::bigint[])
      as t(member_id, outcome, reason, left_pv, right_pv, pairs, credited, withheld, consumed)
    on conflict (cycle_end, member_id) do nothing`.execute(trx);
}

/**
 * Pays one closed cycle: decide every candidate on the facts at the close, record each paid
 * member's bonus once, note the members who did not qualify, move the carry. Called by the `points`
 * policy when it reaches the close in the log: its leg volumes are then exactly those standing at
 * the close, however the consumers interleave. Take lockAllStreamsForBulkAppend first.
 */
export async function payMatchingCycle(trx: Trx, recorded: RecordedEvent<MatchingCycleClosed>): Promise<void> {
  const terms: MatchingTerms = recorded.data;
  const cause: BonusCause = { event_id: recorded.eventId, event_type: recorded.type, stream_id: recorded.streamId, member_id: null };
  await projectMatchingCycles(trx, [recorded]);
  const caps = new Map([...(await packagesAt(trx, recorded)).entries()].map(([id, p]) => [id, p.matching_bonus_cap_kobo]));

  const decided: Decided[] = [];
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
    if (result.outcome !== 'none') decided.push({ row, result });
  }
  // One key per member and cycle (a capped bonus's credited and withheld parts share it; a member
  // who did not qualify takes one too): a re-run of the cycle, or a rebuild, records nothing twice.
  const keyOf = (d: Decided) => bonusKey({ cause, beneficiary_id: d.row.id, kind: 'matching', generation: null });
  const reserved = await reserveBonusKeys(trx, decided.map(keyOf), recorded.eventId);
  const fresh = decided.filter((d) => reserved.has(keyOf(d)));
  const paid = fresh.filter((d) => d.result.decisions.length > 0);

  const metadata: EventMetadata = {
    actor: { type: 'system', id: 'matching' },
    now: recorded.recordedAt,
    causation_id: recorded.eventId,
    correlation_id: recorded.metadata.correlation_id ?? recorded.eventId,
  };
  await appendToStreams(trx, paid.map((d) => ({ streamId: walletStream(d.row.id), events: d.result.decisions })), { metadata });
  await saveCarry(trx, fresh, terms.cycle_end, recorded.recordedAt);
  await saveResults(trx, fresh, terms.cycle_end);

  const count = (outcome: MatchingResult['outcome']) => fresh.filter((d) => d.result.outcome === outcome).length;
  const sum = (type: CompensationEvent['type']) => paid.reduce((total, d) => total + d.result.decisions.filter((e) => e.type === type).reduce((s, e) => s + e.data.amount_kobo, 0), 0);
  await sql`
    update matching_cycles set
      paid_at = coalesce(paid_at, ${recorded.recordedAt}::timestamptz),
      members_matched = members_matched + ${count('paid') + count('capped')},
      members_capped = members_capped + ${count('capped')},
      members_not_qualified = members_not_qualified + ${count('not_qualified')},
      pairs = pairs + ${paid.reduce((total, d) => total + d.result.pairs, 0)},
      credited_kobo = credited_kobo + ${sum('BonusCredited')},
      withheld_kobo = withheld_kobo + ${sum('BonusWithheld')}
    where cycle_end = ${terms.cycle_end}::date`.execute(trx);
}
