import { type Transaction, sql } from 'kysely';
import { type BonusCause, type CompensationEvent, bonusKey, walletStream } from '../compensation/events';
import type { Consumer } from '../core/consumers';
import type { Executor } from '../core/db';
import { type EventMetadata, type RecordedEvent, appendToStreams } from '../core/event-store';
import type { Database } from '../database';
import type { MatchingCycleClosed } from './events';
import { type MatchingMember, type MatchingTerms, matchingBonus } from './policies';

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
  left_child_active: boolean;
  right_child_active: boolean;
  cap_kobo: number;
};

/**
 * Every member with at least one pair left to form, in one query: the cumulative leg volumes
 * (member_points, kept by the `points` policy) less what earlier cycles consumed. Everyone else
 * cannot have a result this cycle and is not read at all.
 */
async function candidates(trx: Trx, totalPv: number): Promise<CandidateRow[]> {
  const { rows } = await sql<CandidateRow>`
    select mp.member_id as id, mp.left_pv, mp.right_pv,
      coalesce(c.consumed_left, 0) as consumed_left, coalesce(c.consumed_right, 0) as consumed_right,
      coalesce(c.seen_left, 0) as seen_left, coalesce(c.seen_right, 0) as seen_right,
      (m.activated_at is not null and not m.deactivated) as active,
      exists (select 1 from members k where k.placement_parent_id = m.id and k.placement_leg = 'left'
              and k.activated_at is not null and not k.deactivated) as left_child_active,
      exists (select 1 from members k where k.placement_parent_id = m.id and k.placement_leg = 'right'
              and k.activated_at is not null and not k.deactivated) as right_child_active,
      coalesce(p.matching_bonus_cap, 0) as cap_kobo
    from member_points mp
    join members m on m.id = mp.member_id
    left join matching_carry c on c.member_id = mp.member_id
    left join packages p on p.id = m.package_id
    where least(mp.left_pv - coalesce(c.consumed_left, 0), mp.right_pv - coalesce(c.consumed_right, 0)) >= ${totalPv}`.execute(trx);
  return rows;
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

type Matched = { row: CandidateRow; decisions: CompensationEvent[]; pairs: number; consumedPv: number };

/** Each matched member's new carry: consumed grows by the pairs' PV, seen is the volume just read. */
async function saveCarry(trx: Trx, matched: readonly Matched[], cycleEnd: string, at: string): Promise<void> {
  if (matched.length === 0) return;
  const column = (pick: (m: Matched) => number) => sql.val(matched.map(pick));
  await sql`
    insert into matching_carry (member_id, consumed_left, consumed_right, seen_left, seen_right, last_cycle_end, updated_at)
    select member_id, consumed_left, consumed_right, seen_left, seen_right, ${cycleEnd}::date, ${at}::timestamptz
    from unnest(${sql.val(matched.map((m) => m.row.id))}::uuid[], ${column((m) => m.row.consumed_left + m.consumedPv)}::bigint[],
                ${column((m) => m.row.consumed_right + m.consumedPv)}::bigint[], ${column((m) => m.row.left_pv)}::bigint[],
                ${column((m) => m.row.right_pv)}::bigint[])
      as t(member_id, consumed_left, consumed_right, seen_left, seen_right)
    on conflict (member_id) do update set
      consumed_left = excluded.consumed_left, consumed_right = excluded.consumed_right,
      seen_left = excluded.seen_left, seen_right = excluded.seen_right,
      last_cycle_end = excluded.last_cycle_end, updated_at = excluded.updated_at`.execute(trx);
}

/** Pays one closed cycle: decide every candidate, record each member's result once, move the carry. */
async function payCycle(trx: Trx, recorded: RecordedEvent<MatchingCycleClosed>): Promise<void> {
  const terms: MatchingTerms = recorded.data;
  const cause: BonusCause = { event_id: recorded.eventId, event_type: recorded.type, stream_id: recorded.streamId, member_id: null };
  await projectMatchingCycles(trx, [recorded]);

  const decided: Matched[] = [];
  for (const row of await candidates(trx, terms.total_pv)) {
    const member: MatchingMember = {
      id: row.id,
      active: row.active,
      leftChildActive: row.left_child_active,
      rightChildActive: row.right_child_active,
      capKobo: row.cap_kobo,
      carriedLeft: row.seen_left - row.consumed_left,
      carriedRight: row.seen_right - row.consumed_right,
      newLeft: row.left_pv - row.seen_left,
      newRight: row.right_pv - row.seen_right,
    };
    const result = matchingBonus(member, terms, cause);
    if (result.decisions.length > 0) decided.push({ row, ...result });
  }
  // One key per member and cycle (a capped bonus's credited and withheld parts share it): a re-run
  // of the cycle, or a rebuild, finds the key taken and records nothing for that member again.
  const keyOf = (m: Matched) => bonusKey({ cause, beneficiary_id: m.row.id, kind: 'matching', generation: null });
  const reserved = await reserveBonusKeys(trx, decided.map(keyOf), recorded.eventId);
  const matched = decided.filter((m) => reserved.has(keyOf(m)));

  const metadata: EventMetadata = {
    actor: { type: 'system', id: 'matching' },
    now: recorded.recordedAt,
    causation_id: recorded.eventId,
    correlation_id: recorded.metadata.correlation_id ?? recorded.eventId,
  };
  await appendToStreams(trx, matched.map((m) => ({ streamId: walletStream(m.row.id), events: m.decisions })), { metadata });
  await saveCarry(trx, matched, terms.cycle_end, recorded.recordedAt);

  const sum = (pick: (d: CompensationEvent) => boolean) => matched.reduce((total, m) => total + m.decisions.filter(pick).reduce((s, d) => s + d.data.amount_kobo, 0), 0);
  await sql`
    update matching_cycles set
      paid_at = coalesce(paid_at, ${recorded.recordedAt}::timestamptz),
      members_matched = members_matched + ${matched.length},
      pairs = pairs + ${matched.reduce((total, m) => total + m.pairs, 0)},
      credited_kobo = credited_kobo + ${sum((d) => d.type === 'BonusCredited')},
      withheld_kobo = withheld_kobo + ${sum((d) => d.type === 'BonusWithheld')}
    where cycle_end = ${terms.cycle_end}::date`.execute(trx);
}

/**
 * The matching policy (BUSINESS-RULES.md §3 "Matching"): on each closed cycle, pays every member
 * with a pair set-based (one query for the candidates, one insert per 5,000 keys, appendToStreams
 * for the wallets, one upsert for the carry), all in the batch's transaction. One cycle per batch:
 * a cycle of 100,000 members is one transaction of its own.
 *
 * The volumes are read when the cycle is processed: PV the `points` policy had not yet counted
 * then is not lost, it counts in the next cycle (consumed amounts, not snapshots, are stored).
 */
export const matchingPolicy: Consumer = {
  name: 'matching',
  kind: 'policy',
  eventTypes: ['MatchingCycleClosed'],
  batchSize: 1,
  async apply(trx, events) {
    for (const recorded of events) {
      if (recorded.type === 'MatchingCycleClosed') await payCycle(trx, recorded as RecordedEvent<MatchingCycleClosed>);
    }
  },
};
