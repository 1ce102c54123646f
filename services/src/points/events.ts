import type { BonusCause } from '../compensation/events';
import type { DomainEvent } from '../core/event-store';

/**
 * A member reached a rank (BUSINESS-RULES.md §3 "Ranks and incentives"): the highest rank whose
 * points ≤ the member's CPV and whose package id ≤ the member's package id, once it is above the
 * rank recorded before. Ranks never go down, and each (member, rank) is recorded once.
 *
 * Recorded by the `points` policy on `rank-<memberId>`. `cause` names the event that raised the
 * CPV (an activation, an upgrade or a repurchase somewhere in the downline) or unlocked the rank
 * (the member's own upgrade), so "why do I hold this rank?" has an answer in the log, and
 * incentives can be claimed against it.
 */
export type RankAchieved = DomainEvent<
  'RankAchieved',
  {
    member_id: string;
    rank_id: number;
    rank_name: string;
    /** The rank held before; null for the first rank. */
    previous_rank_id: number | null;
    /** The CPV and package that qualified for the rank when it was reached. */
    cpv: number;
    package_id: number;
    cause: BonusCause;
  }
>;

/**
 * Many members reached a rank by one cause: a PV event deep in the tree lifting thousands of
 * ancestors at once (docs/points.md "Rank cascades"). One event on `rank-cascade-<cause event id>`
 * naming every member and rank, each entry exactly what its RankAchieved would hold, instead of
 * one RankAchieved per member: recording 10,000 ranks then costs one append, one hash and one
 * row, not 10,000. Recorded when a cause lifts more than RANK_EVENTS_PER_MEMBER_UP_TO members;
 * fewer get one RankAchieved each. Consumers of ranks read both (rankEntries below).
 *
 * The entries are in `columns`, one array per field (as MatchingOutcomesRecorded): half the JSON
 * of an array of objects, whose field names were half of each entry (~0.6 MB instead of 1.3 MB for
 * 10,000 ranks, each byte canonicalised, hashed and stored by the append). Cascades recorded
 * before decision 67 hold `ranks`, an array of objects (RanksAchievedAsRecordedBefore): every
 * reader reads both, through rankEntries (and audit/projections.ts in SQL).
 */
export type RanksAchieved = DomainEvent<'RanksAchieved', { cause: BonusCause } & RankCompact>;

/** The shape of RanksAchieved from decision 67 to decision 80: one array per field. Still read. */
export type RanksAchievedInColumns = DomainEvent<'RanksAchieved', { cause: BonusCause; columns: RankColumns }>;

/**
 * How a cascade is recorded since decision 80: per member only its id, its CPV and the index of its
 * `kind` in `kinds`, the distinct (rank, previous rank, package) combinations the cascade reached
 * (a deep cascade lifts 10,000 members to a handful of ranks from a handful of ranks), numbered in
 * the order of their first member. The points policy appends it from inside its crediting
 * statement (points/projections.ts creditPathStatement), never sending the entries to JavaScript.
 */
export type RankCompact = {
  members: { member_id: string[]; cpv: number[]; kind: number[] };
  kinds: { rank_id: number[]; rank_name: string[]; previous_rank_id: Array<number | null>; package_id: number[] };
};

/** One cascade entry: what its member's RankAchieved would hold, without the cause. */
export type RankEntry = Omit<RankAchieved['data'], 'cause'>;

/** One array per field of RankEntry, the same length each, in the entries' order. */
export type RankColumns = { [K in keyof RankEntry]: Array<RankEntry[K]> };

/** The first shape of RanksAchieved (until decision 67): an array of objects. Still read. */
export type RanksAchievedAsRecordedBefore = DomainEvent<'RanksAchieved', { cause: BonusCause; ranks: RankEntry[] }>;

/** The columns of these entries (how a cascade is recorded). */
export function rankColumns(entries: readonly RankEntry[]): RankColumns {
  return {
    member_id: entries.map((e) => e.member_id),
    rank_id: entries.map((e) => e.rank_id),
    rank_name: entries.map((e) => e.rank_name),
    previous_rank_id: entries.map((e) => e.previous_rank_id),
    cpv: entries.map((e) => e.cpv),
    package_id: entries.map((e) => e.package_id),
  };
}

/** The compact shape of these entries (kinds numbered by their first entry, as the crediting statement numbers them). */
export function rankCompact(entries: readonly RankEntry[]): RankCompact {
  const members: RankCompact['members'] = { member_id: [], cpv: [], kind: [] };
  const kinds: RankCompact['kinds'] = { rank_id: [], rank_name: [], previous_rank_id: [], package_id: [] };
  const kindOf = new Map<string, number>();
  for (const e of entries) {
    const key = JSON.stringify([e.rank_id, e.rank_name, e.previous_rank_id, e.package_id]);
    let kind = kindOf.get(key);
    if (kind === undefined) {
      kind = kinds.rank_id.length;
      kindOf.set(key, kind);
      kinds.rank_id.push(e.rank_id);
      kinds.rank_name.push(e.rank_name);
      kinds.previous_rank_id.push(e.previous_rank_id);
      kinds.package_id.push(e.package_id);
    }
    members.member_id.push(e.member_id);
    members.cpv.push(e.cpv);
    members.kind.push(kind);
  }
  return { members, kinds };
}

export type PointsEvent = RankAchieved | RanksAchieved;

/** A cause lifting more members than this records one RanksAchieved for all of them. */
export const RANK_EVENTS_PER_MEMBER_UP_TO = 100;

export const rankCascadeStream = (causeEventId: string) => `rank-cascade-${causeEventId}`;

/** Every (member, rank) a RankAchieved or RanksAchieved (of any of its three shapes) records, in the event's order. */
export function rankEntries(event: RankAchieved | RanksAchieved | RanksAchievedInColumns | RanksAchievedAsRecordedBefore): Array<RankAchieved['data']> {
  if (event.type === 'RankAchieved') return [event.data];
  const { cause } = event.data;
  if ('ranks' in event.data) return event.data.ranks.map((rank) => ({ ...rank, cause }));
  if ('members' in event.data) {
    const { members: m, kinds } = event.data;
    return entriesOf(m.member_id, m.cpv, (i) => m.kind[i]!, kinds, cause);
  }
  const c = event.data.columns;
  // The columns shape is the compact one with a kind per member.
  return entriesOf(c.member_id, c.cpv, (i) => i, c, cause);
}

function entriesOf(memberIds: string[], cpvs: number[], kindOf: (i: number) => number, k: RankCompact['kinds'], cause: BonusCause): Array<RankAchieved['data']> {
  return memberIds.map((member_id, i) => {
    const kind = kindOf(i);
    return {
      member_id,
      rank_id: k.rank_id[kind]!,
      rank_name: k.rank_name[kind]!,
      previous_rank_id: k.previous_rank_id[kind] ?? null,
      cpv: cpvs[i]!,
      package_id: k.package_id[kind]!,
      cause,
    };
  });
}

export const rankStream = (memberId: string) => `rank-${memberId}`;

/**
 * The unique-key scopes that keep a rank from being recorded twice (replays, rebuilds): one key per
 * (member, rank) (`rank`: `<memberId>:<rankId>`), and, since decision 72, one key per cascade
 * judged in the crediting statement (`rank-cascade`: the cause's event id) instead of one per
 * member it lifts (points/projections.ts creditPath says why that is enough).
 */
export const rankKeyScope = 'rank';
export const rankCascadeKeyScope = 'rank-cascade';
export const rankKey = (memberId: string, rankId: number) => `${memberId}:${rankId}`;
