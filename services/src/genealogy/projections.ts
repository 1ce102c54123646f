import { type Transaction, sql } from 'kysely';
import { batchRange } from '../core/batch-range';
import type { Consumer } from '../core/consumers';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import type { MemberRegistered, MemberRegistrationExpired, MemberReinstated, PlacementLeg } from '../membership/events';
import { type RunLimits, placeRegistrationsAt } from './genealogy-at';
import { downlineRange, legBit } from './paths';

type Trx = Transaction<Database>;
type GenealogyEvent = MemberRegistered | MemberRegistrationExpired | MemberReinstated;

/** Generations of the sponsor chain the plan pays (BUSINESS-RULES.md §3), and all a member keeps. */
export const SPONSOR_GENERATIONS = 10;

/**
 * The genealogy read tables (docs/genealogy.md): placement tree with legs and counts, sponsor
 * chain, direct downlines. Asynchronous: screens may show a new member a moment after it joined.
 * Per batch it does a fixed number of statements whatever the batch holds: one insert of the new
 * members, one walk up their ancestors, one update of every counter that changed.
 */
export const genealogyProjection: Consumer = {
  name: 'genealogy',
  kind: 'projection',
  eventTypes: ['MemberRegistered', 'MemberRegistrationExpired', 'MemberReinstated'],
  tables: ['genealogy_nodes', 'genealogy_counts'],
  batchSize: 1000,
  apply: (trx, events) => applyGenealogy(trx, events),
  // The batch by position, each event read inside PostgreSQL as the four ids the tree needs: the
  // whole data and metadata of a registration (~1 KB, parsed in the process) were most of a
  // rebuild's read. The same function applies them.
  async applyAt(trx, positions) {
    if (positions.length === 0) return;
    const { rows } = await sql<{ type: string; global_position: string; data: Record<string, unknown> }>`
      select e.type, e.global_position, jsonb_build_object('member_id', e.data->'member_id', 'sponsor_id', e.data->'sponsor_id',
        'placement_parent_id', e.data->'placement_parent_id', 'placement_leg', e.data->'placement_leg') as data
      from unnest(${sql.val(positions)}::bigint[]) with ordinality as p(position, ord)
      join events e on e.global_position = p.position and ${batchRange(positions, 'e.global_position')}
      order by p.ord`.execute(trx);
    await applyGenealogy(trx, rows.map((r) => ({ type: r.type, data: r.data, globalPosition: Number(r.global_position) }) as unknown as RecordedEvent));
  },
  // Rebuilds: the registrations placed inside PostgreSQL, one statement a run (genealogy-at.ts).
  rebuildAt: (trx, positions) => projectGenealogyAt(trx, positions),
};

/**
 * The genealogy tables from a batch named by position, as applyGenealogy leaves them, for
 * rebuilds: each run of registrations by one statement (placeRegistrationsAt), and an expiry or a
 * reinstatement between two runs by the live projection's own functions (they are rare).
 */
export async function projectGenealogyAt(trx: Trx, positions: readonly number[], limits?: RunLimits): Promise<void> {
  for (let from = 1; from <= positions.length; ) {
    const end = await placeRegistrationsAt(trx, positions, from, SPONSOR_GENERATIONS, limits);
    // A run too deep for one statement (it wrote nothing): the rest of the batch as the live projection applies it.
    if (end === 'too deep') return genealogyProjection.applyAt!(trx, positions.slice(from - 1));
    if (!end) return;
    await detachFromPlacement(trx, end.member_id);
    if (end.type === 'MemberReinstated') await attachToPlacement(trx, end.member_id, end.placement_parent_id!, end.placement_leg!);
    from = end.ord + 1;
  }
}

/** The genealogy tables a batch at a time (reads of each event only its type, position and the four ids of applyAt's data). */
async function applyGenealogy(trx: Trx, events: readonly RecordedEvent[]): Promise<void> {
  // Registrations are applied together; a change of place (rare) first applies the ones before it.
  let registrations: RecordedEvent<MemberRegistered>[] = [];
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<GenealogyEvent>;
    switch (event.type) {
      case 'MemberRegistered':
        registrations.push(event);
        break;
      case 'MemberRegistrationExpired':
        await placeRegistrations(trx, registrations);
        registrations = [];
        await detachFromPlacement(trx, event.data.member_id);
        break;
      case 'MemberReinstated':
        await placeRegistrations(trx, registrations);
        registrations = [];
        await detachFromPlacement(trx, event.data.member_id);
        await attachToPlacement(trx, event.data.member_id, event.data.placement_parent_id, event.data.placement_leg);
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
  await placeRegistrations(trx, registrations);
}

type PlacedNode = { memberId: string; treeRootId: string; path: string; sponsorChain: string[]; sponsorDepth: number };
type CountDelta = { left: number; right: number; direct: number };
type CountDeltas = Map<string, CountDelta>;

function addCount(deltas: CountDeltas, memberId: string, field: PlacementLeg | 'direct', n: number): void {
  const delta = deltas.get(memberId) ?? { left: 0, right: 0, direct: 0 };
  delta[field] += n;
  deltas.set(memberId, delta);
}

async function loadNodes(trx: Trx, memberIds: readonly string[]): Promise<Map<string, PlacedNode>> {
  if (memberIds.length === 0) return new Map();
  const { rows } = await sql<{ member_id: string; tree_root_id: string; path: string; sponsor_chain: string[]; sponsor_depth: number }>`
    select member_id, tree_root_id, path::text as path, sponsor_chain, sponsor_depth
    from genealogy_nodes where member_id = any(${sql.val(memberIds)}::uuid[])`.execute(trx);
  return new Map(rows.map((r) => [r.member_id, { memberId: r.member_id, treeRootId: r.tree_root_id, path: r.path, sponsorChain: r.sponsor_chain, sponsorDepth: r.sponsor_depth }]));
}

/**
 * New members: their path is their placement parent's plus one bit, their sponsor chain their
 * sponsor's shifted by one generation. Parents and sponsors are earlier in the batch or already
 * projected (the log holds a placement parent's registration before its children's). The log's
 * order is the order of transaction ids, taken at a transaction's first write, not of commits: it
 * holds because a registration (and a reinstatement) reads its parent, committed, before its first
 * write. A child appended before its parent committed (the lag bench once did) would sort first
 * and be placed here at the top of a tree of its own, silently.
 */
async function placeRegistrations(trx: Trx, registrations: readonly RecordedEvent<MemberRegistered>[]): Promise<void> {
  if (registrations.length === 0) return;
  const inBatch = new Set(registrations.map((r) => r.data.member_id));
  const elsewhere = new Set<string>();
  for (const { data } of registrations) {
    for (const id of [data.placement_parent_id, data.sponsor_id]) if (id && !inBatch.has(id)) elsewhere.add(id);
  }
  const nodes = await loadNodes(trx, [...elsewhere]);

  const rows = registrations.map(({ data, globalPosition }) => {
    const parent = data.placement_parent_id ? nodes.get(data.placement_parent_id) : undefined;
    const sponsor = data.sponsor_id ? nodes.get(data.sponsor_id) : undefined;
    // Without a parent (the company root) the member is the top of a tree of its own.
    const placed = parent !== undefined && data.placement_leg !== null;
    const node: PlacedNode = {
      memberId: data.member_id,
      treeRootId: placed ? parent.treeRootId : data.member_id,
      path: placed ? parent.path + legBit(data.placement_leg!) : '',
      sponsorChain: data.sponsor_id ? [data.sponsor_id, ...(sponsor?.sponsorChain ?? [])].slice(0, SPONSOR_GENERATIONS) : [],
      sponsorDepth: sponsor ? sponsor.sponsorDepth + 1 : 0,
    };
    nodes.set(node.memberId, node);
    return { node, parentId: placed ? data.placement_parent_id : null, leg: placed ? data.placement_leg : null, sponsorId: data.sponsor_id, position: globalPosition };
  });

  await sql`
    insert into genealogy_nodes (member_id, tree_root_id, path, placement_parent_id, placement_leg, sponsor_id, sponsor_chain, sponsor_depth, registered_position)
    select id, root, path::varbit, parent, leg, sponsor, chain::uuid[], sponsor_depth, position
    from unnest(
      ${sql.val(rows.map((r) => r.node.memberId))}::uuid[],
      ${sql.val(rows.map((r) => r.node.treeRootId))}::uuid[],
      ${sql.val(rows.map((r) => r.node.path))}::text[],
      ${sql.val(rows.map((r) => r.parentId))}::uuid[],
      ${sql.val(rows.map((r) => r.leg))}::text[],
      ${sql.val(rows.map((r) => r.sponsorId))}::uuid[],
      ${sql.val(rows.map((r) => `{${r.node.sponsorChain.join(',')}}`))}::text[],
      ${sql.val(rows.map((r) => r.node.sponsorDepth))}::int[],
      ${sql.val(rows.map((r) => r.position))}::bigint[]
    ) as u(id, root, path, parent, leg, sponsor, chain, sponsor_depth, position)`.execute(trx);
  await sql`insert into genealogy_counts (member_id) select unnest(${sql.val([...inBatch])}::uuid[])`.execute(trx);

  // Each new member counts once for every ancestor. Inside the batch the sizes are summed
  // children first (reverse order); what leaves the batch is carried up the stored tree at once.
  const deltas: CountDeltas = new Map();
  const newBelow = new Map<string, number>();
  const entries: { memberId: string; count: number }[] = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.sponsorId) addCount(deltas, row.sponsorId, 'direct', 1);
    if (!row.parentId || !row.leg) continue;
    const size = 1 + (newBelow.get(row.node.memberId) ?? 0);
    addCount(deltas, row.parentId, row.leg, size);
    if (inBatch.has(row.parentId)) newBelow.set(row.parentId, (newBelow.get(row.parentId) ?? 0) + size);
    else entries.push({ memberId: row.parentId, count: size });
  }
  await carryToAncestors(trx, entries, deltas);
  await applyCountDeltas(trx, deltas);
}

/**
 * Adds `count` to the leg counts of every placement ancestor of each given member (not the
 * member itself), on the leg that leads to it. One walk up the parent links for the whole batch
 * (a UNION visits each shared ancestor once), summed deepest first.
 */
async function carryToAncestors(trx: Trx, from: readonly { memberId: string; count: number }[], deltas: CountDeltas): Promise<void> {
  if (from.length === 0) return;
  const { rows } = await sql<{ member_id: string; placement_parent_id: string | null; placement_leg: PlacementLeg | null; depth: number }>`
    with recursive up(member_id, placement_parent_id, placement_leg, depth) as (
      select member_id, placement_parent_id, placement_leg, depth from genealogy_nodes
      where member_id = any(${sql.val(from.map((f) => f.memberId))}::uuid[])
      union
      select n.member_id, n.placement_parent_id, n.placement_leg, n.depth
      from up join genealogy_nodes n on n.member_id = up.placement_parent_id
      where up.depth > 0
    )
    select * from up order by depth desc`.execute(trx);
  const carried = new Map<string, number>();
  for (const { memberId, count } of from) carried.set(memberId, (carried.get(memberId) ?? 0) + count);
  for (const node of rows) {
    const count = carried.get(node.member_id);
    if (!count || node.depth === 0 || !node.placement_parent_id || !node.placement_leg) continue;
    addCount(deltas, node.placement_parent_id, node.placement_leg, count);
    carried.set(node.placement_parent_id, (carried.get(node.placement_parent_id) ?? 0) + count);
  }
}

async function applyCountDeltas(trx: Trx, deltas: CountDeltas): Promise<void> {
  if (deltas.size === 0) return;
  const ids = [...deltas.keys()];
  const of = (field: keyof CountDelta) => ids.map((id) => deltas.get(id)![field]);
  await sql`
    update genealogy_counts c set
      left_count = c.left_count + d.left_count,
      right_count = c.right_count + d.right_count,
      downline_count = c.downline_count + d.left_count + d.right_count,
      direct_count = c.direct_count + d.direct_count
    from unnest(${sql.val(ids)}::uuid[], ${sql.val(of('left'))}::int[], ${sql.val(of('right'))}::int[], ${sql.val(of('direct'))}::int[])
      as d(member_id, left_count, right_count, direct_count)
    where c.member_id = d.member_id`.execute(trx);
}

type StoredPlacement = { tree_root_id: string; path: string; placement_parent_id: string | null; placement_leg: PlacementLeg | null; downline_count: number };

async function storedPlacement(trx: Trx, memberId: string): Promise<StoredPlacement | undefined> {
  const { rows } = await sql<StoredPlacement>`
    select n.tree_root_id, n.path::text as path, n.placement_parent_id, n.placement_leg, coalesce(c.downline_count, 0) as downline_count
    from genealogy_nodes n left join genealogy_counts c using (member_id) where n.member_id = ${memberId}`.execute(trx);
  return rows[0];
}

/**
 * An expired registration leaves its slot (BUSINESS-RULES.md §1). Members placed below it stay
 * below it: the member becomes the top of a detached tree, and its old ancestors lose it and its
 * whole downline from their counts.
 */
async function detachFromPlacement(trx: Trx, memberId: string): Promise<void> {
  const node = await storedPlacement(trx, memberId);
  if (!node || node.tree_root_id === memberId || !node.placement_parent_id || !node.placement_leg) return;
  const size = 1 + node.downline_count;
  const deltas: CountDeltas = new Map();
  addCount(deltas, node.placement_parent_id, node.placement_leg, -size);
  await carryToAncestors(trx, [{ memberId: node.placement_parent_id, count: -size }], deltas);
  await applyCountDeltas(trx, deltas);

  const { after, before } = downlineRange(node.path);
  await sql`
    update genealogy_nodes set
      tree_root_id = ${memberId},
      path = substring(path from ${node.path.length + 1}),
      placement_parent_id = case when member_id = ${memberId} then null else placement_parent_id end,
      placement_leg = case when member_id = ${memberId} then null else placement_leg end
    where tree_root_id = ${node.tree_root_id} and path >= ${after}::varbit
      ${before === null ? sql`` : sql`and path < ${before}::varbit`}`.execute(trx);
}

/** A reinstated registration takes its new slot, bringing the members placed below it. */
async function attachToPlacement(trx: Trx, memberId: string, parentId: string, leg: PlacementLeg): Promise<void> {
  const node = await storedPlacement(trx, memberId);
  const parent = await storedPlacement(trx, parentId);
  // A parent inside the member's own downline would close a loop; commands never choose one.
  if (!node || !parent || node.tree_root_id !== memberId || parent.tree_root_id === memberId) return;
  await sql`
    update genealogy_nodes set
      tree_root_id = ${parent.tree_root_id},
      path = ${parent.path}::varbit || ${legBit(leg)}::varbit || path,
      placement_parent_id = case when member_id = ${memberId} then ${parentId}::uuid else placement_parent_id end,
      placement_leg = case when member_id = ${memberId} then ${leg} else placement_leg end
    where tree_root_id = ${memberId}`.execute(trx);

  const size = 1 + node.downline_count;
  const deltas: CountDeltas = new Map();
  addCount(deltas, parentId, leg, size);
  await carryToAncestors(trx, [{ memberId: parentId, count: size }], deltas);
  await applyCountDeltas(trx, deltas);
}
