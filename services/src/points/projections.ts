import { type RawBuilder, type Transaction, sql } from 'kysely';
import { batchAt } from '../core/row-changes-at';
import { type BonusCause, type CompensationEvent, bonusEventTypes } from '../compensation/events';
import type { Consumer } from '../core/consumers';
import { BULK_APPEND_LOCK, type EventMetadata, type RecordedEvent, appendToStreams, hashMiddleAndTail, lockAllStreamsForBulkAppend, mayAppend, noteAppended, streamLockKey } from '../core/event-store';
import { canonicalJson } from '../core/canonical-json';
import { timeOrderedId } from '../core/ids';
import type { MatchingCycleClosed, MatchingEvent } from '../matching/events';
import { payMatchingCycle } from '../matching/projections';
import type { GlobalProfitShared } from '../profit-sharing/events';
import { payGlobalProfit } from '../profit-sharing/projections';
import type { Executor } from '../core/db';
import { memberFactBy } from '../compensation/facts-at-cause';
import type { Database } from '../database';
import { memberStream } from '../membership/events';
import { type PointsEvent, RANK_EVENTS_PER_MEMBER_UP_TO, type RankAchieved, type RanksAchieved, type RanksAchievedAsRecordedBefore, type RanksAchievedInColumns, rankCascadeStream, rankCompact, rankCascadeKeyScope, rankEntries, rankKey, rankKeyScope, rankStream } from './events';
import { type PvEvent, type Rank, pvDelta, rankAchievement } from './policies';

type Trx = Transaction<Database>;

/**
 * A member on the credited path whose rank may have risen (activated, and some rank within its CPV
 * and current package lies above the rank recorded), in the path's order (the member, then its
 * ancestors upward):
 * - `decided`: its package at the cause is on its members row, so creditPath judged it in SQL (the
 *   same rule as rankAchievement: the highest rank by (points, id) within its CPV and package, if
 *   above the rank recorded) and already set the rank in member_points and members and reserved
 *   its key (its own (member, rank) key, or its cause's key in a cascade); `fresh` says whether it
 *   is recorded now (false: a replay, or a (member, rank) key taken before; nothing to append). `rank_id`, `rank_name`: the rank reached; `package_at_cause` its package.
 * - otherwise its package at the cause is not on the row (activated or upgraded after the cause:
 *   the policy runs behind, or replays): packagesAtCause reads its stream and rankAchievement judges it.
 */
type RankCandidate = {
  member_id: string;
  cpv: number;
  recorded_rank_id: number | null;
  decided: boolean;
  rank_id: number | null;
  rank_name: string | null;
  package_at_cause: number | null;
  fresh: boolean;
};

/**
 * The walk up the placement tree from the member (depth 0) through every ancestor, and the leg each
 * arrives by. Each step reads the ancestor's members row once and keeps what the rank judgement
 * needs from it (activation, package and when each was set), so the judgement does not read the
 * 10,000 rows of a deep path a second time (~15 ms of the deep activation's credit).
 */
const placementPath = (memberId: string, pv: number) => sql`
    up(member_id, leg, depth, parent_id, own_leg, activated, package_id, activated_xid, activated_position, package_xid, package_position) as (
      select m.id, null::text, 0, m.placement_parent_id, m.placement_leg::text,
        m.activated_at is not null, m.package_id, m.activated_xid, m.activated_position, m.package_xid, m.package_position
      from members m where m.id = ${memberId}
      union all
      select m.id, up.own_leg, up.depth + 1, m.placement_parent_id, m.placement_leg::text,
        m.activated_at is not null, m.package_id, m.activated_xid, m.activated_position, m.package_xid, m.package_position
      from up join members m on m.id = up.parent_id
      where ${pv}::bigint > 0
    )`;

/**
 * An upsert into member_points (aliased `mp`) that adds the inserted row's PV to a row already
 * there, and sets its rank when the inserted row names one (the live credit and the rebuild's).
 */
const addedToMemberPoints = sql`on conflict (member_id) do update set
        personal_pv = mp.personal_pv + excluded.personal_pv,
        cpv = mp.cpv + excluded.cpv,
        left_pv = mp.left_pv + excluded.left_pv,
        right_pv = mp.right_pv + excluded.right_pv,
        rank_id = coalesce(excluded.rank_id, mp.rank_id),
        rank_achieved_at = case when excluded.rank_id is null then mp.rank_achieved_at else excluded.rank_achieved_at end,
        updated_at = excluded.updated_at`;

/**
 * The credit of `pv` to each row of `source` (member_id, leg, depth on the path), as one upsert:
 * personal PV at depth 0, CPV everywhere, the leg's volume by the leg arrived by; `rankId` the
 * rank to set with it (null: keep the row's).
 */
const creditUpsert = (source: RawBuilder<unknown>, pv: number, at: string, rankId: RawBuilder<unknown>) => sql`
      insert into member_points as mp (member_id, personal_pv, cpv, left_pv, right_pv, rank_id, rank_achieved_at, updated_at)
      select member_id,
        case when depth = 0 then ${pv}::bigint else 0 end,
        ${pv}::bigint,
        case when leg = 'left' then ${pv}::bigint else 0 end,
        case when leg = 'right' then ${pv}::bigint else 0 end,
        ${rankId},
        case when ${rankId} is not null then ${at}::timestamptz end,
        ${at}::timestamptz
      from ${source}
      ${addedToMemberPoints}`;

/**
 * Adds `pv` to the member (personal PV and CPV) and to every placement ancestor (CPV and the leg
 * the path arrives by), in ONE statement however deep the member is: a recursive walk up
 * members.placement_parent_id (the inline members table is current, and activated members never
 * move), then an update of every row on the path and an insert of the rows missing: an ancestor
 * that has not paid yet has no row, and its volumes must still count when it activates.
 *
 * The same statement judges the ranks of the path's members whose package at the cause is on
 * their members row (packages only rise, and the row says when it was set), and for each rank
 * reached sets it in the same upsert that credits the CPV (member_points is the rank's only home
 * since decision 86; it was copied onto the members row too, a second 10,000-row write): a
 * cascade lifting 10,000 ancestors wrote member_points twice (the credit, then the ranks) and sent
 * the 10,000 keys and ranks back in two more statements (~135 ms of the deep activation's points
 * policy; docs/decisions.md 67). The CPV judged is the row's before the statement plus `pv`: the
 * points policy is the only writer of member_points, under its lock.
 *
 * Keys (exactly once): up to RANK_EVENTS_PER_MEMBER_UP_TO ranks decided here, each its own
 * (member, rank) key, as before. More (a cascade), ONE key for the cause (scope `rank-cascade`):
 * a decided rank is above the rank member_points records, which is the highest recorded for the
 * member (ranks are set with their record, under this policy's lock), so it was never recorded
 * live; the cause's key makes a replay of the same cause (checkpoint reset) record nothing again,
 * and a (member, rank) key reserved before (per-member events, the old path, cascades before
 * decision 72) still counts: such a rank is not fresh. `recorded_before`: the cause's key was
 * taken before (a replay), so the undecided candidates judged afterwards are not fresh either.
 * The other candidates (package not on the row) come back undecided for packagesAtCause.
 */
async function creditPath(trx: Trx, memberId: string, pv: number, cause: RecordedEvent): Promise<{ candidates: RankCandidate[]; recordedBefore: boolean }> {
  // The cascade's append from inside the statement, when this transaction may append it (noteAppended's check, before).
  const append = mayAppend(trx, 'RanksAchieved') ? cascadeAppend(cause) : undefined;
  const { rows } = await creditPathStatement(memberId, pv, cause, append).execute(trx);
  if (rows.some((row) => row.appended)) {
    noteAppended(trx, ['RanksAchieved']);
    return { candidates: [], recordedBefore: false };
  }
  return { candidates: rows.map(({ recorded_before: _, appended: __, depth: ___, ...row }) => ({ ...row, cpv: Number(row.cpv) })), recordedBefore: rows.some((row) => row.recorded_before) };
}

/**
 * What the crediting statement needs to append a cascade's RanksAchieved itself, as appendToStreams
 * would: the stream (`rank-cascade-<cause>`), a new event id, the metadata's canonical JSON, the
 * cause's (the data's first key) and the hash's middle and tail (core/event-store.ts canonicalHashPieces).
 */
export type CascadeAppend = { streamId: string; eventId: string; recordedAt: string; metadata: string; cause: string; middle: string; tail: string };

export function cascadeAppend(cause: RecordedEvent): CascadeAppend {
  const metadata = rankMetadata(cause);
  const recordedAt = new Date(metadata.now).toISOString();
  const streamId = rankCascadeStream(cause.eventId);
  const bonusCause: BonusCause = { event_id: cause.eventId, event_type: cause.type, stream_id: cause.streamId, member_id: (cause.data as { member_id: string }).member_id };
  return {
    streamId,
    eventId: timeOrderedId(),
    recordedAt,
    metadata: canonicalJson(metadata),
    cause: canonicalJson(bonusCause),
    ...hashMiddleAndTail({ streamId, type: 'RanksAchieved', schemaVersion: 1, recordedAt }),
  };
}

/**
 * The cascade's RanksAchieved appended inside the crediting statement (decision 80): when the
 * statement reserved the cause's cascade key, judged every candidate (none left for
 * packagesAtCause) and more than RANK_EVENTS_PER_MEMBER_UP_TO of its ranks are fresh, the event's
 * data is aggregated from `judged` as the canonical JSON text (RFC 8785: keys in order, no spaces;
 * numbers as integers, strings through to_json, which escapes as JSON.stringify does) of
 * rankCompact's shape, stored as jsonb and hashed with the same text appendOne hashes (so verifyLog
 * and eventHash agree), chained after the stream's head (a new stream: the cause names it, and its
 * key, reserved above, lets one transaction only get here). The locks appendToStreams takes
 * (BULK_APPEND_LOCK shared, the stream's) are taken before the insert. The 10,000 entries never
 * leave PostgreSQL: the statement answers one row, `appended`.
 */
const cascadeAppendCtes = (a: CascadeAppend) => sql`,
    cascade_fresh as (
      select j.member_id, j.cpv, j.depth, j.held_id, j.held_name, j.recorded_rank_id, j.package_at_cause
      from judged j
      where j.decided and (select big from cascade)
        and not exists (select 1 from unique_keys k where k.scope = ${rankKeyScope} and k.key = j.member_id::text || ':' || j.held_id)
    ),
    in_sql as materialized (
      select exists (select 1 from cascade_key)
        and not exists (select 1 from judged where undecided)
        and (select count(*) from cascade_fresh) > ${RANK_EVENTS_PER_MEMBER_UP_TO} as yes
    ),
    -- The kinds: the distinct (rank, name, previous rank, package) of the fresh members, numbered by
    -- their first member in path order (rankCompact's numbering), grouped by hashing and matched back
    -- by a hash join (two window passes, each a sort of the 10,000 members, before decision 84).
    cascade_kinds as (
      select k.*, row_number() over (order by k.first_depth) - 1 as kind
      from (select f.held_id, f.held_name, f.recorded_rank_id, f.package_at_cause, min(f.depth) as first_depth
            from cascade_fresh f where (select yes from in_sql)
            group by f.held_id, f.held_name, f.recorded_rank_id, f.package_at_cause) k
    ),
    cascade_members as (
      select f.member_id, f.cpv, f.depth, k.kind
      from cascade_fresh f
        join cascade_kinds k on k.held_id = f.held_id and k.held_name = f.held_name and k.package_at_cause = f.package_at_cause
          and k.recorded_rank_id is not distinct from f.recorded_rank_id
    ),
    cascade_data as materialized (
      select '{"cause":' || ${a.cause}::text
        || ',"kinds":{"package_id":[' || (select string_agg(package_at_cause::text, ',' order by kind) from cascade_kinds)
        || '],"previous_rank_id":[' || (select string_agg(coalesce(recorded_rank_id::text, 'null'), ',' order by kind) from cascade_kinds)
        || '],"rank_id":[' || (select string_agg(held_id::text, ',' order by kind) from cascade_kinds)
        || '],"rank_name":[' || (select string_agg(to_json(held_name)::text, ',' order by kind) from cascade_kinds)
        || ']},"members":{"cpv":[' || string_agg(m.cpv::text, ',' order by m.depth)
        || '],"kind":[' || string_agg(m.kind::text, ',' order by m.depth)
        || '],"member_id":["' || string_agg(m.member_id::text, '","' order by m.depth) || '"]}}' as data
      from cascade_members m
      having count(*) > 0
    ),
    cascade_lock as materialized (
      select count(pg_advisory_xact_lock_shared(hashtextextended(${BULK_APPEND_LOCK}, 0)))
        + count(pg_advisory_xact_lock(hashtextextended(${streamLockKey(a.streamId)}, 0))) as n
      from in_sql where yes
    ),
    cascade_head as (
      select coalesce(h.stream_position, 0) as position, coalesce(h.hash, repeat('0', 64)) as hash
      from (select 1) one left join lateral (
        select e.stream_position, e.hash from events e where e.stream_id = ${a.streamId} order by e.stream_position desc limit 1) h on true
    ),
    cascade_event as (
      insert into events (stream_id, stream_position, type, schema_version, data, metadata, recorded_at, event_id, prev_hash, hash)
      select ${a.streamId}, h.position + 1, 'RanksAchieved', 1, d.data::jsonb, ${a.metadata}::jsonb, ${a.recordedAt}::timestamptz, ${a.eventId}::uuid, h.hash,
        encode(sha256(convert_to('{"data":' || d.data || ',"event_id":"' || ${a.eventId}::text || '","metadata":' || ${a.metadata}::text
          || ',"prev_hash":"' || h.hash || ${a.middle}::text || (h.position + 1)::text || ${a.tail}::text, 'UTF8')), 'hex')
      from cascade_data d, cascade_head h, cascade_lock l
      where l.n >= 0
      returning 1
    )`;

/** creditPath's statement (exported for services/bench/profile-credit.ts, which EXPLAINs it); `append`: the cascade may be appended in it (cascadeAppendCtes). */
export function creditPathStatement(memberId: string, pv: number, cause: Pick<RecordedEvent, 'eventId' | 'recordedAt' | 'transactionId' | 'globalPosition'>, append?: CascadeAppend) {
  const at = cause.recordedAt;
  return sql<RankCandidate & { recorded_before: boolean; appended: boolean; depth: number }>`
    with recursive ${placementPath(memberId, pv)},
    path as (
      select up.member_id, up.leg, up.depth,
        coalesce(old.cpv, 0) + ${pv}::bigint as cpv,
        old.rank_id as recorded_rank_id,
        old.member_id is not null as had_row,
        up.activated,
        up.package_id as current_package,
        case when ${memberFactBy('up', 'activated', cause)} and ${memberFactBy('up', 'package', cause)} then up.package_id end as package_at_cause
      from up
        left join member_points old on old.member_id = up.member_id
    ),
    -- The rank a package allows at a CPV: for each package on the path, its ranks' points, ids and
    -- names in (points, id) order; the highest by (points, id) within a CPV (rankAchievement's rule)
    -- is the last whose points are at most the CPV, the n-th where n = width_bucket(cpv, points) (a
    -- binary search: the count of points ≤ the CPV, 0 for none, and a[0] is null). A sort of the
    -- ranks for each of a deep path's 10,000 members took ~25 ms (docs/decisions.md 78).
    rank_list as materialized (select id, name, points, package_id from ranks),
    ladder as (
      select k.package_id, array_agg(r.points::bigint order by r.points, r.id) as points,
        array_agg(r.id order by r.points, r.id) as ids, array_agg(r.name order by r.points, r.id) as names
      from (select distinct package_id from up where package_id is not null) k
        join rank_list r on r.package_id <= k.package_id
      group by k.package_id
    ),
    held as (
      select p.*, l.ids[n] as held_id, l.names[n] as held_name, l.points[n] as held_points
      from path p
        left join ladder l on l.package_id = p.package_at_cause
        cross join lateral (select width_bucket(p.cpv, l.points) as n) w
    ),
    judged as (
      select p.*,
        p.activated and p.package_at_cause is not null and p.held_id is not null
          and (recorded.id is null or (p.held_points, p.held_id) > (recorded.points, recorded.id)) as decided,
        p.activated and p.package_at_cause is null and exists (
          select 1 from ranks r
          where r.points <= p.cpv and r.package_id <= p.current_package
            and (recorded.id is null or (r.points, r.id) > (recorded.points, recorded.id))) as undecided
      from held p
        left join rank_list recorded on recorded.id = p.recorded_rank_id
    ),
    -- The rows the path already has are updated, the others (an ancestor not yet paid) inserted:
    -- an insert-on-conflict locks each existing row before rewriting it, one more WAL record and
    -- an arbiter-index probe a row (the deep path's plain credit: 10,001 WAL records instead of
    -- ~22,300, ~20 ms instead of ~34 ms). The path read before the statement says which rows exist:
    -- the points policy is member_points' only writer, under its lock (the insert keeps its
    -- on-conflict clause all the same).
    credited as (
      update member_points mp set
        personal_pv = mp.personal_pv + case when j.depth = 0 then ${pv}::bigint else 0 end,
        cpv = mp.cpv + ${pv}::bigint,
        left_pv = mp.left_pv + case when j.leg = 'left' then ${pv}::bigint else 0 end,
        right_pv = mp.right_pv + case when j.leg = 'right' then ${pv}::bigint else 0 end,
        rank_id = case when j.decided then j.held_id else mp.rank_id end,
        rank_achieved_at = case when j.decided then ${at}::timestamptz else mp.rank_achieved_at end,
        updated_at = ${at}::timestamptz
      from judged j
      where j.had_row and mp.member_id = j.member_id
      returning 1
    ),
    credited_new as (${creditUpsert(sql`judged where not had_row`, pv, at, sql`case when decided then held_id end`)} returning 1),
    cascade as (select count(*) filter (where decided) > ${RANK_EVENTS_PER_MEMBER_UP_TO} as big from judged),
    cascade_key as (
      insert into unique_keys (scope, key, owner)
      select ${rankCascadeKeyScope}, ${cause.eventId}, ${cause.eventId} from cascade where cascade.big
      on conflict do nothing returning key
    ),
    reserved as (
      insert into unique_keys (scope, key, owner)
      select ${rankKeyScope}, j.member_id::text || ':' || j.held_id, ${cause.eventId} from judged j where j.decided and not (select big from cascade)
      on conflict do nothing returning key
    )${append ? cascadeAppendCtes(append) : sql``}
    select r.* from (
    select j.member_id, j.cpv, j.recorded_rank_id, j.decided,
      case when j.decided then j.held_id end as rank_id,
      case when j.decided then j.held_name end as rank_name,
      j.package_at_cause,
      case when (select big from cascade)
        -- the statement's snapshot: keys reserved before it, never the cascade's own
        then exists (select 1 from cascade_key) and not exists (
          select 1 from unique_keys k where k.scope = ${rankKeyScope} and k.key = j.member_id::text || ':' || j.held_id)
        else exists (select 1 from reserved k where k.key = j.member_id::text || ':' || j.held_id)
      end as fresh,
      (select big from cascade) and not exists (select 1 from cascade_key) as recorded_before,
      false as appended, j.depth
    from judged j
    where (j.decided or j.undecided) ${append ? sql`and not (select yes from in_sql)` : sql``}
    ${append ? sql`union all
    select null::uuid, null::bigint, null::int, false, null::int, null::text, null::int, false, false, true, -1 from cascade_event` : sql``}
    ) r
    order by r.depth`;
}

/** creditPath's credit alone, without judging ranks (the event-by-event replay of member_points: its ranks come from the rank events). */
async function creditPathOnly(trx: Trx, memberId: string, pv: number, at: string): Promise<void> {
  await sql`with recursive ${placementPath(memberId, pv)} ${creditUpsert(sql`up`, pv, at, sql`null::int`)}`.execute(trx);
}

/**
 * The package each member held at the cause, in the log's commit order: its latest activation or
 * upgrade up to the cause. Not the package it holds now: the policy may run behind (or replay
 * the log), and a later upgrade must not be credited to an earlier cause. A member not yet
 * activated at the cause is absent (it holds no rank yet).
 */
async function packagesAtCause(trx: Trx, memberIds: readonly string[], cause: RecordedEvent): Promise<Map<string, number>> {
  if (memberIds.length === 0) return new Map();
  // Most members' package was set (activation or last upgrade) before the cause: the members row
  // says so (package_xid / package_position, written inline), and its package is the answer with
  // no read of the log. Only the others (activated or upgraded after the cause: the policy runs
  // behind, or replays) read their streams. A 10,000-ancestor cascade is then one indexed scan.
  const { rows } = await sql<{ member_id: string; package_id: number }>`
    select m.id as member_id, m.package_id
    from members m
    where m.id = any(${sql.val(memberIds)}::uuid[])
      and ${memberFactBy('m', 'activated', cause)} and ${memberFactBy('m', 'package', cause)}
    union all
    select c.member_id, p.package_id
    from members m
    cross join lateral (select m.id as member_id, 'member-' || m.id as stream_id) c
    cross join lateral (
      select coalesce((e.data->>'to_package_id')::int, (e.data->>'package_id')::int) as package_id
      from events e
      where e.stream_id = c.stream_id
        and e.type in ('MemberActivated', 'MemberPackageUpgraded')
        and (e.transaction_id, e.global_position) <= (${cause.transactionId}::xid8, ${cause.globalPosition}::bigint)
      order by e.stream_position desc
      limit 1
    ) p
    where m.id = any(${sql.val(memberIds)}::uuid[])
      and not (${memberFactBy('m', 'activated', cause)} and ${memberFactBy('m', 'package', cause)})`.execute(trx);
  return new Map(rows.map((row) => [row.member_id, row.package_id]));
}

/**
 * Records each rank reached once: the keys are reserved (for the ranks creditPath judged, by
 * creditPath itself, one per (member, rank) or one for a cascade's cause; for the others here, one
 * per (member, rank) in one statement, none fresh if the cause's key was taken before), so a replay of the log (or
 * a re-run of a batch) appends nothing twice, but still sets the rank in member_points.
 * rank_achieved_at is the cause's time, so a replay rebuilds the same rows.
 * Up to RANK_EVENTS_PER_MEMBER_UP_TO members get one RankAchieved each on their rank stream; a
 * larger cascade (a deep activation lifting thousands of ancestors) is one RanksAchieved naming
 * them all, in columns (docs/points.md "Rank cascades").
 *
 * `ranked`: every rank reached, in the path's order; `fresh` true when creditPath reserved its key
 * anew, false when it was reserved before, undefined when judged here (its rank not set yet).
 */
async function recordRanks(trx: Trx, ranked: ReadonlyArray<{ decision: RankAchieved; fresh?: boolean }>, cause: RecordedEvent, recordedBefore: boolean): Promise<void> {
  if (ranked.length === 0) return;
  const judgedHere = ranked.filter((r) => r.fresh === undefined).map((r) => r.decision);
  let freshHere = new Set<string>();
  if (judgedHere.length > 0) {
    const { rows: reserved } = await sql<{ key: string }>`
      insert into unique_keys (scope, key, owner)
      select ${rankKeyScope}, key, ${cause.eventId} from unnest(${sql.val(judgedHere.map((d) => rankKey(d.data.member_id, d.data.rank_id)))}::text[]) as k(key)
      on conflict do nothing returning key`.execute(trx);
    // A cause whose cascade key was taken before (a replay) recorded these too.
    freshHere = recordedBefore ? new Set() : new Set(reserved.map((row) => row.key));
    await setRanks(trx, judgedHere.map((d) => d.data), cause.recordedAt);
  }
  const fresh = ranked
    .filter((r) => r.fresh ?? freshHere.has(rankKey(r.decision.data.member_id, r.decision.data.rank_id)))
    .map((r) => r.decision);
  const metadata = rankMetadata(cause);
  if (fresh.length > RANK_EVENTS_PER_MEMBER_UP_TO) {
    const cascade: RanksAchieved = { type: 'RanksAchieved', data: { cause: fresh[0]!.data.cause, ...rankCompact(fresh.map(({ data: { cause: _, ...rank } }) => rank)) } };
    await appendToStreams(trx, [{ streamId: rankCascadeStream(cause.eventId), events: [cascade] }], { metadata });
  } else {
    // appendToStreams takes each rank stream's advisory lock, as the bonus policies' appendBook does for wallets.
    await appendToStreams(trx, fresh.map((decision) => ({ streamId: rankStream(decision.data.member_id), events: [decision] })), { metadata });
  }
}

/** The metadata of the rank events a cause records. */
function rankMetadata(cause: RecordedEvent): EventMetadata {
  return {
    actor: { type: 'system', id: 'points' },
    now: cause.recordedAt,
    causation_id: cause.eventId,
    correlation_id: cause.metadata.correlation_id ?? cause.eventId,
  };
}

/** The rank each member holds now, in member_points (its only home: sign-in, profile and member lists read it there). */
async function setRanks(trx: Trx, ranks: ReadonlyArray<{ member_id: string; rank_id: number }>, at: string): Promise<void> {
  await sql`
    update member_points mp set rank_id = t.rank_id, rank_achieved_at = ${at}::timestamptz
    from unnest(${sql.val(ranks.map((r) => r.member_id))}::uuid[], ${sql.val(ranks.map((r) => r.rank_id))}::int[]) as t(member_id, rank_id)
    where mp.member_id = t.member_id`.execute(trx);
}

/**
 * Points (BUSINESS-RULES.md §3 "PV and CPV", leg volumes, ranks; docs/points.md): a policy with
 * working state. Each activation, upgrade and paid repurchase adds its PV to the member and up the
 * placement tree, then the member and every ancestor whose CPV changed is checked against the
 * ranks, and a rise is recorded as `RankAchieved` in the same transaction.
 */
export const pointsPolicy: Consumer = {
  name: 'points',
  kind: 'policy',
  eventTypes: ['MemberActivated', 'MemberPackageUpgraded', 'ProductPurchasePaid', 'MatchingCycleClosed', 'GlobalProfitShared'],
  // Ranks; a matching cycle's and a global profit share's bonuses and the cycle's outcomes only for a batch holding one
  // (the wallet ledger then waits only for those batches).
  appends: (batchTypes) =>
    (batchTypes.has('MatchingCycleClosed') || batchTypes.has('GlobalProfitShared')
      ? ['RankAchieved', 'RanksAchieved', ...bonusEventTypes, 'MatchingOutcomesRecorded', 'MatchingCycleSettled']
      : ['RankAchieved', 'RanksAchieved']) satisfies (PointsEvent | MatchingEvent | CompensationEvent)['type'][],
  // Short: a batch holds its transaction id from its first write (the first credit) to its commit,
  // and every consumer of every type reads only below it (decision 71; 100 held readers for seconds).
  batchSize: 10,
  async apply(trx, events) {
    // A cycle or a share may pay thousands of wallets: the bulk lock first, before any stream lock (core/event-store.ts).
    if (events.some((e) => e.type === 'MatchingCycleClosed' || e.type === 'GlobalProfitShared')) await lockAllStreamsForBulkAppend(trx);
    const ranks: Rank[] = await trx.selectFrom('ranks').select(['id', 'name', 'points', 'package_id']).execute();
    for (const recorded of events) {
      if (recorded.type === 'MatchingCycleClosed') {
        // Here, in log order, member_points holds exactly the leg volumes standing at the close.
        await payMatchingCycle(trx, recorded as RecordedEvent<MatchingCycleClosed>);
        continue;
      }
      if (recorded.type === 'GlobalProfitShared') {
        // Likewise CPV and ranks stand here exactly as at the share.
        await payGlobalProfit(trx, recorded as RecordedEvent<GlobalProfitShared>);
        continue;
      }
      const event = recorded as RecordedEvent<PvEvent>;
      const pv = pvDelta(event);
      // A pick-up paid by the package adds nothing and changes no package: nothing to check.
      if (event.type === 'ProductPurchasePaid' && pv === 0) continue;
      const memberId = event.data.member_id;
      const { candidates, recordedBefore } = await creditPath(trx, memberId, pv, recorded);
      // Most candidates were judged in SQL, their package at the cause on their members row; the rest read their streams.
      const packages = await packagesAtCause(trx, candidates.filter((c) => !c.decided).map((c) => c.member_id), recorded);
      const cause: BonusCause = { event_id: recorded.eventId, event_type: recorded.type, stream_id: recorded.streamId, member_id: memberId };
      const ranked = candidates.flatMap((c): Array<{ decision: RankAchieved; fresh?: boolean }> => {
        if (c.decided) {
          const decision: RankAchieved = {
            type: 'RankAchieved',
            data: { member_id: c.member_id, rank_id: c.rank_id!, rank_name: c.rank_name!, previous_rank_id: c.recorded_rank_id, cpv: c.cpv, package_id: c.package_at_cause!, cause },
          };
          return [{ decision, fresh: c.fresh }];
        }
        const packageId = packages.get(c.member_id);
        if (packageId === undefined) return [];
        const decision = rankAchievement({ memberId: c.member_id, cpv: c.cpv, packageId, recordedRankId: c.recorded_rank_id, ranks, cause });
        return decision ? [{ decision }] : [];
      });
      await recordRanks(trx, ranked, recorded, recordedBefore);
    }
  },
};

/**
 * member_points replayed from the log (the `member-points` read model, read-models.ts, rebuilt by
 * core/policy-state-rebuild.ts under the points policy's lock up to its checkpoint), a whole batch
 * in ONE statement: every PV event of the batch walks up the placement tree at once (each walk
 * tagged with its event's place in the batch), the credits are summed per member and upserted
 * once, and each rank event sets the rank at its cause's time. The same rows as applying the
 * events one by one (projectMemberPointsEventByEvent, which a property test compares it with):
 * - sums commute, and `updated_at` is the time of the last event in the batch that credited the row;
 * - a rank event only updates a row that exists when it comes: one that existed before the batch,
 *   or one an earlier credit of the batch created (a rank before its member's first credit is lost,
 *   as an UPDATE of a missing row would lose it); the last such rank of a member wins;
 * - ranks and credits write different columns, so their relative order matters for nothing else.
 */
export async function projectMemberPoints(trx: Trx, events: readonly RecordedEvent[]): Promise<void> {
  const credits = { ord: [] as number[], member: [] as string[], pv: [] as number[], at: [] as string[] };
  const ranks = { ord: [] as number[], member: [] as string[], rank: [] as number[], at: [] as string[] };
  events.forEach((recorded, ord) => {
    if (recorded.type === 'RankAchieved' || recorded.type === 'RanksAchieved') {
      for (const entry of rankEntries(recorded as RecordedEvent<RankAchieved | RanksAchieved | RanksAchievedInColumns | RanksAchievedAsRecordedBefore>)) {
        ranks.ord.push(ord);
        ranks.member.push(entry.member_id);
        ranks.rank.push(entry.rank_id);
        ranks.at.push(recorded.recordedAt);
      }
      return;
    }
    if (!pvEventTypes.has(recorded.type)) return;
    const event = recorded as RecordedEvent<PvEvent>;
    const pv = pvDelta(event);
    if (event.type === 'ProductPurchasePaid' && pv === 0) return;
    credits.ord.push(ord);
    credits.member.push(event.data.member_id);
    credits.pv.push(pv);
    credits.at.push(recorded.recordedAt);
  });
  if (credits.ord.length === 0 && ranks.ord.length === 0) return;
  await memberPointsStatement(
    sql``,
    sql`select * from unnest(${sql.val(credits.ord)}::int[], ${sql.val(credits.member)}::uuid[], ${sql.val(credits.pv)}::bigint[], ${sql.val(credits.at)}::timestamptz[])`,
    sql`select * from unnest(${sql.val(ranks.ord)}::int[], ${sql.val(ranks.member)}::uuid[], ${sql.val(ranks.rank)}::int[], ${sql.val(ranks.at)}::timestamptz[])`,
  ).execute(trx);
}

/** pvDelta's wholePv in SQL: a positive JSON number, floored; anything else adds nothing. */
const wholePvSql = (value: RawBuilder<unknown>) => sql`case when jsonb_typeof(${value}) = 'number' and (${value})::numeric > 0 then floor((${value})::numeric)::bigint else 0 end`;

/**
 * projectMemberPoints inside PostgreSQL (rebuilds: the batch by log position, its events never
 * cross into the process): the credits (pvDelta) and rank entries (rankEntries) of the batch in SQL,
 * then the same statement. member-points-batch.property.int.spec.ts compares it with the events
 * applied one by one.
 */
export async function projectMemberPointsAt(trx: Trx, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  await memberPointsStatement(
    sql`batch as materialized (${batchAt(positions)}),`,
    sql`
      select ord::int, (data->>'member_id')::uuid, pv, recorded_at from (
        select ord, type, data, recorded_at, case type
          when 'MemberActivated' then case when coalesce(data->>'payment_id', '') <> '' then ${wholePvSql(sql`data->'point_value'`)} else 0 end
          when 'MemberPackageUpgraded' then ${wholePvSql(sql`data->'point_value_added'`)}
          else case when data->>'pickup_type' = 'repurchase_pickup' then ${wholePvSql(sql`data->'total_points'`)} else 0 end
        end as pv
        from batch where type in ('MemberActivated', 'MemberPackageUpgraded', 'ProductPurchasePaid')) c
      -- a pick-up paid by the package adds nothing and changes no package
      where not (type = 'ProductPurchasePaid' and pv = 0)`,
    sql`
      select ord::int, (data->>'member_id')::uuid, (data->>'rank_id')::int, recorded_at from batch where type = 'RankAchieved'
      union all
      select b.ord::int, (r.value->>'member_id')::uuid, (r.value->>'rank_id')::int, b.recorded_at
      from batch b cross join lateral jsonb_array_elements(b.data->'ranks') as r(value) where b.type = 'RanksAchieved'
      union all
      -- a cascade in columns (decision 67): the member and rank arrays side by side
      select b.ord::int, c.member_id::uuid, c.rank_id::int, b.recorded_at
      from batch b cross join lateral rows from (
        jsonb_array_elements_text(b.data->'columns'->'member_id'), jsonb_array_elements_text(b.data->'columns'->'rank_id')) as c(member_id, rank_id)
      where b.type = 'RanksAchieved'
      union all
      -- a compact cascade (decision 80): each member's kind indexes the kinds' rank ids
      select b.ord::int, c.member_id::uuid, (b.data->'kinds'->'rank_id'->>c.kind::int)::int, b.recorded_at
      from batch b cross join lateral rows from (
        jsonb_array_elements_text(b.data->'members'->'member_id'), jsonb_array_elements_text(b.data->'members'->'kind')) as c(member_id, kind)
      where b.type = 'RanksAchieved'`,
  ).execute(trx);
}

/** projectMemberPoints' statement, from its credits (ord, member_id, pv, at) and rank entries (ord, member_id, rank_id, at). */
function memberPointsStatement(before: RawBuilder<unknown>, credits: RawBuilder<unknown>, ranks: RawBuilder<unknown>) {
  return sql`
    with recursive ${before} credit(ord, member_id, pv, at) as (${credits}),
    up(ord, member_id, leg, depth, pv, at) as (
      select c.ord, m.id, null::text, 0, c.pv, c.at from credit c join members m on m.id = c.member_id
      union all
      select up.ord, m.placement_parent_id, m.placement_leg::text, up.depth + 1, up.pv, up.at
      from up join members m on m.id = up.member_id
      where m.placement_parent_id is not null and up.pv > 0
    ),
    summed as (
      select member_id,
        sum(case when depth = 0 then pv else 0 end)::bigint as personal_pv,
        sum(pv)::bigint as cpv,
        sum(case when leg = 'left' then pv else 0 end)::bigint as left_pv,
        sum(case when leg = 'right' then pv else 0 end)::bigint as right_pv,
        (array_agg(at order by ord desc))[1] as updated_at,
        min(ord) as first_ord
      from up group by member_id
    ),
    rank_event(ord, member_id, rank_id, at) as (${ranks}),
    last_rank as (
      select distinct on (r.member_id) r.member_id, r.rank_id, r.at
      from rank_event r left join summed s on s.member_id = r.member_id
      where s.first_ord < r.ord or exists (select 1 from member_points p where p.member_id = r.member_id)
      order by r.member_id, r.ord desc
    ),
    credited as (
      insert into member_points as mp (member_id, personal_pv, cpv, left_pv, right_pv, rank_id, rank_achieved_at, updated_at)
      select s.member_id, s.personal_pv, s.cpv, s.left_pv, s.right_pv, r.rank_id, r.at, s.updated_at
      from summed s left join last_rank r on r.member_id = s.member_id
      ${addedToMemberPoints}
      returning 1
    ),
    ranked as (
      update member_points mp set rank_id = r.rank_id, rank_achieved_at = r.at
      from last_rank r
      where mp.member_id = r.member_id and not exists (select 1 from summed s where s.member_id = r.member_id)
      returning 1
    )
    select (select count(*) from credited) + (select count(*) from ranked) as written`;
}

const pvEventTypes = new Set(['MemberActivated', 'MemberPackageUpgraded', 'ProductPurchasePaid']);

/**
 * The same, event by event: each PV event credits its path as the policy does (creditPathOnly: creditPath
 * without its judging of ranks), each rank event sets the rank at its cause's time (the
 * event's recorded_at is its cause's, events carry their command's `now`). The specification the
 * batched projectMemberPoints is tested against (points/member-points-batch.property.int.spec.ts).
 */
export async function projectMemberPointsEventByEvent(trx: Trx, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    if (recorded.type === 'RankAchieved' || recorded.type === 'RanksAchieved') {
      const entries = rankEntries(recorded as RecordedEvent<RankAchieved | RanksAchieved | RanksAchievedInColumns | RanksAchievedAsRecordedBefore>);
      await sql`
        update member_points mp set rank_id = t.rank_id, rank_achieved_at = ${recorded.recordedAt}::timestamptz
        from unnest(${sql.val(entries.map((e) => e.member_id))}::uuid[], ${sql.val(entries.map((e) => e.rank_id))}::int[]) as t(member_id, rank_id)
        where mp.member_id = t.member_id`.execute(trx);
      continue;
    }
    if (!pvEventTypes.has(recorded.type)) continue;
    const event = recorded as RecordedEvent<PvEvent>;
    const pv = pvDelta(event);
    if (event.type === 'ProductPurchasePaid' && pv === 0) continue;
    await creditPathOnly(trx, event.data.member_id, pv, recorded.recordedAt);
  }
}
