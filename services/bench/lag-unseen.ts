import { sql } from 'kysely';
import { consumers } from '../src/consumers';
import { drainConsumer } from '../src/core/consumers';
import type { Db } from '../src/core/db';
import { APPENDS_DECLARED_LOCK_CLASS } from '../src/core/event-store';
import { domainErrorStatus } from '../src/api/errors';
import { ConcurrencyConflict, DomainError } from '../src/core/errors';
import { compareWithLive, discardRebuild } from '../src/core/rebuild';
import { findReadModel, rebuildReadModel } from '../src/read-models';

/**
 * What the lag bench could not see (issue 13, item 3): a refused command leaves no effect to see,
 * a lost one is a committed event the read tables never show. For each command the bench keeps
 * how it ended; for each effect not seen this says whether its event is in the log, where, whether
 * the consumer's checkpoint has passed it, and whether the read table shows it after the consumer
 * is drained once more and after a rebuild beside the live tables.
 */

/** How a command ended, as the api would have answered it (api/errors.ts). */
export type CommandOutcome =
  | { ok: true; recorded: boolean }
  | { ok: false; status: number; error: string; message: string };

export function refusal(error: unknown): Extract<CommandOutcome, { ok: false }> {
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : typeof error;
  const status = error instanceof DomainError ? domainErrorStatus(error) : error instanceof ConcurrencyConflict ? 409 : 500;
  return { ok: false, status, error: name, message: message.slice(0, 200) };
}

/** Refusals grouped by status and message, most frequent first. */
export function refusalsByKind(outcomes: readonly { kind: string; outcome: CommandOutcome }[]): { kind: string; status: number; error: string; message: string; count: number }[] {
  const groups = new Map<string, { kind: string; status: number; error: string; message: string; count: number }>();
  for (const { kind, outcome } of outcomes) {
    if (outcome.ok) continue;
    const key = `${kind}|${outcome.status}|${outcome.error}|${outcome.message}`;
    const group = groups.get(key) ?? { kind, status: outcome.status, error: outcome.error, message: outcome.message, count: 0 };
    group.count++;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** For a registration, `key` is the placement parent. */
export type Unseen = { kind: 'withdrawal' | 'registration'; id: string; key: string; needs: number; leg?: 'left' | 'right' };

type LogEvent = { global_position: number; transaction_id: string; type: string };

export type UnseenReport = {
  kind: Unseen['kind'];
  id: string;
  /** The command's event in the log (WithdrawalRequested by withdrawal id, MemberRegistered by member id). */
  event: LogEvent | null;
  /** The consumer's checkpoint is at or past the event (it was read, or skipped). */
  checkpointPassed: boolean | null;
  /** What the read table says, and what the log says it should (wallet: total withdrawn; genealogy: the parent's leg). */
  readTable: string;
  /** The effect the bench waited for is in the read table now. */
  visible: boolean;
  /** Why, when the log explains it (e.g. the parent's registration sorts after the child's). */
  explanation?: string;
};

const readerOf = { withdrawal: 'wallet-ledger', registration: 'genealogy' } as const;

async function checkpointOf(db: Db, name: string): Promise<{ tx: string; gp: number } | null> {
  const { rows } = await sql<{ tx: string; gp: number }>`
    select last_transaction_id::text as tx, last_global_position as gp from consumer_checkpoints where name = ${name}`.execute(db);
  return rows[0] ? { tx: rows[0].tx, gp: Number(rows[0].gp) } : null;
}

const passed = (checkpoint: { tx: string; gp: number } | null, event: LogEvent | null) =>
  checkpoint && event ? BigInt(checkpoint.tx) > BigInt(event.transaction_id) || (checkpoint.tx === event.transaction_id && checkpoint.gp >= Number(event.global_position)) : null;

/** One unseen effect against the log and the read tables as they stand now. */
export async function explainUnseen(db: Db, unseen: Unseen): Promise<UnseenReport> {
  const checkpoint = await checkpointOf(db, readerOf[unseen.kind]);
  if (unseen.kind === 'withdrawal') {
    const { rows } = await sql<LogEvent>`
      select global_position, transaction_id::text as transaction_id, type from events
      where stream_id = ${`wallet-${unseen.key}`} and type = 'WithdrawalRequested' and data->>'withdrawal_id' = ${unseen.id}`.execute(db);
    const { rows: totals } = await sql<{ in_log: string; table: string | null; events: number }>`
      select coalesce(sum((data->>'amount_kobo')::bigint), 0)::text as in_log, count(*)::int as events,
        (select total_withdrawn::text from wallets where member_id = ${unseen.key}::uuid) as table
      from events where stream_id = ${`wallet-${unseen.key}`} and type = 'WithdrawalRequested'`.execute(db);
    const t = totals[0]!;
    return {
      kind: 'withdrawal',
      id: unseen.id,
      event: rows[0] ?? null,
      checkpointPassed: passed(checkpoint, rows[0] ?? null),
      readTable: `wallets.total_withdrawn ${t.table ?? 'no row'}, the log's ${t.events} WithdrawalRequested sum to ${t.in_log}, the bench expected at least ${unseen.needs}`,
      visible: Number(t.table ?? 0) >= unseen.needs,
    };
  }
  const { rows } = await sql<LogEvent & { member_id: string }>`
    select global_position, transaction_id::text as transaction_id, type, data->>'member_id' as member_id from events
    where type = 'MemberRegistered' and stream_id = any(${sql.val([`member-${unseen.id}`, `member-${unseen.key}`])}::text[])`.execute(db);
  const own = rows.find((r) => r.member_id === unseen.id) ?? null;
  const parent = rows.find((r) => r.member_id === unseen.key) ?? null;
  const { rows: nodes } = await sql<{ placement_parent_id: string | null; tree_root_id: string; left_count: number | null; right_count: number | null }>`
    select n.placement_parent_id, n.tree_root_id,
      (select left_count from genealogy_counts where member_id = ${unseen.key}::uuid) as left_count,
      (select right_count from genealogy_counts where member_id = ${unseen.key}::uuid) as right_count
    from genealogy_nodes n where n.member_id = ${unseen.id}::uuid`.execute(db);
  const node = nodes[0];
  const { rows: counts } = await sql<{ n: number }>`
    select ${unseen.leg === 'left' ? sql`left_count` : sql`right_count`} as n from genealogy_counts where member_id = ${unseen.key}::uuid`.execute(db);
  const order = (e: LogEvent) => [BigInt(e.transaction_id), BigInt(e.global_position)] as const;
  const parentAfter = own && parent && (order(parent)[0] > order(own)[0] || (order(parent)[0] === order(own)[0] && order(parent)[1] > order(own)[1]));
  return {
    kind: 'registration',
    id: unseen.id,
    event: own,
    checkpointPassed: passed(checkpoint, own),
    readTable: node
      ? `genealogy_nodes: placement parent ${node.placement_parent_id === unseen.key ? 'the expected one' : (node.placement_parent_id ?? 'none')}, tree root ${node.tree_root_id === unseen.id ? 'itself' : 'shared'}; the parent's ${unseen.leg} count ${(unseen.leg === 'left' ? node.left_count : node.right_count) ?? 'no row'}`
      : 'no genealogy_nodes row',
    visible: (counts[0]?.n ?? 0) >= unseen.needs,
    ...(parent === null
      ? { explanation: 'the placement parent has no MemberRegistered in the log (its registration failed)' }
      : parentAfter
        ? { explanation: `the placement parent's registration sorts after the child's in the log (parent ${parent.transaction_id}/${parent.global_position}, child ${own!.transaction_id}/${own!.global_position})` }
        : {}),
  };
}

/**
 * Drains the two readers once more (the worker must be stopped: it would hold their locks) and
 * rebuilds them beside the live tables: how many rows differ from what the log says.
 */
export async function drainAndCheck(db: Db): Promise<{ drained: Record<string, number>; differences: Record<string, { onlyLive: number; onlyRebuilt: number; samples: unknown[] }[]> }> {
  const drained: Record<string, number> = {};
  const differences: Record<string, { onlyLive: number; onlyRebuilt: number; samples: unknown[] }[]> = {};
  for (const name of Object.values(readerOf)) {
    const consumer = consumers.find((c) => c.name === name)!;
    const result = await drainConsumer(db, consumer);
    drained[name] = result.applied;
    const model = findReadModel(name)!;
    const rebuilt = await rebuildReadModel(db, model, { swap: false });
    differences[name] = (await compareWithLive(db, rebuilt.schema, model.tables)).map((d) => ({ onlyLive: d.onlyLive, onlyRebuilt: d.onlyRebuilt, samples: d.samples.slice(0, 4) }));
    await discardRebuild(db, name);
  }
  return { drained, differences };
}

/**
 * Who holds the horizon (BENCH_LAG_HOLDERS=1): every few ms, the transaction of this database with
 * the oldest xid that a reader of `readTypes` waits for (one that declared what it appends, and
 * none of these types, is passed: decision 73), by application and the shape of its last
 * statement, and how long it had been open. Samples, not traces: a shape seen often and open long
 * is what the reader waits for.
 */
export function sampleHorizonHolders(db: Db, readTypes: readonly string[], consumerNames: readonly string[] = [], everyMs = 5): { stop: () => Promise<{ samples: number; holders: { holder: string; share: number; p50OpenMs: number; maxOpenMs: number }[] }> } {
  const byHolder = new Map<string, number[]>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await sql<{ app: string; query: string; open_ms: number }>`
        select a.application_name || coalesce((
            -- A consumer's batch holds its consumer's advisory lock (core/consumers.ts tryLock): name it.
            select ' [' || c.name || ']' from unnest(${sql.val([...consumerNames])}::text[]) c(name)
            join pg_locks l on l.pid = a.pid and l.locktype = 'advisory' and l.objsubid = 1
              and l.classid::bigint = (hashtextextended('consumer:' || c.name, 0) >> 32) & 4294967295
              and l.objid::bigint = hashtextextended('consumer:' || c.name, 0) & 4294967295
            limit 1), '') as app, left(regexp_replace(a.query, '\\s+', ' ', 'g'), 48) as query,
          (extract(epoch from clock_timestamp() - a.xact_start) * 1000)::float8 as open_ms
        from pg_stat_activity a
        where a.datname = current_database() and a.backend_xid is not null and a.pid <> pg_backend_pid()
          and not exists (
            select 1 from pg_locks mark where mark.pid = a.pid and mark.locktype = 'advisory' and mark.granted
              and mark.classid = ${APPENDS_DECLARED_LOCK_CLASS} and mark.objsubid = 2 and mark.objid = 0
              and not exists (select 1 from pg_locks d where d.pid = a.pid and d.locktype = 'advisory' and d.classid = ${APPENDS_DECLARED_LOCK_CLASS}
                and d.objsubid = 2 and d.objid = any(array(select hashtext(r) from unnest(${sql.val([...readTypes])}::text[]) r))))
        order by age(a.backend_xid) desc limit 1`.execute(db);
      samples++;
      const row = rows[0];
      const holder = row ? `${row.app}: ${row.query}` : '(none: the horizon is the snapshot xmax)';
      const list = byHolder.get(holder) ?? [];
      list.push(row ? Number(row.open_ms) : 0);
      byHolder.set(holder, list);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const holders = [...byHolder.entries()].map(([holder, open]) => {
        const sorted = [...open].sort((a, b) => a - b);
        return { holder, share: open.length / samples, p50OpenMs: sorted[Math.floor(sorted.length / 2)]!, maxOpenMs: sorted.at(-1)! };
      });
      holders.sort((a, b) => b.share - a.share);
      return { samples, holders: holders.slice(0, 12) };
    },
  };
}
