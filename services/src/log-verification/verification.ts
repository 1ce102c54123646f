import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Executor } from '../core/db';
import type { EventMetadata } from '../core/event-store';
import { type BrokenLink, type ChainState, chainStart, checkLink } from './chain';

/**
 * The tamper check (docs/tamper-check.md): a run walks the whole log in (stream_id,
 * stream_position) keyset batches, checks every hash and link (chain.ts), saves its progress after
 * each batch, and ends `intact` or `broken` with the first broken link named. Then it checks the
 * heads earlier intact runs anchored (a stream cut short below one is named too) and, when intact,
 * anchors the heads it saw.
 */
export type VerificationStatus = 'queued' | 'running' | 'intact' | 'broken' | 'failed';
export type VerificationRow = {
  id: string;
  trigger: 'admin' | 'schedule';
  requested_by: string | null;
  status: VerificationStatus;
  events_total: number;
  events_checked: number;
  streams_checked: number;
  problems_count: number;
  first_problem: BrokenLink | null;
  problems: BrokenLink[];
  heads_digest: string | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
};

/** Problems kept on the run beyond the first (the count says how many there were). */
const PROBLEMS_KEPT = 20;
export const VERIFY_BATCH_EVENTS = 5000;
/** A run that has not moved for this long lost its worker (a restart): a new request replaces it. */
const STALE_AFTER_MS = 10 * 60_000;

export async function findVerification(db: Executor, id: string): Promise<VerificationRow | null> {
  const { rows } = await sql<VerificationRow>`select * from log_verifications where id = ${id}`.execute(db);
  return rows[0] ?? null;
}

/** The newest run, and the newest finished one (the dashboard's and /metrics' "last verification"). */
export async function latestVerifications(db: Executor): Promise<{ latest: VerificationRow | null; lastFinished: VerificationRow | null }> {
  const { rows: latest } = await sql<VerificationRow>`select * from log_verifications order by created_at desc limit 1`.execute(db);
  const { rows: finished } = await sql<VerificationRow>`
    select * from log_verifications where status in ('intact', 'broken') order by finished_at desc limit 1`.execute(db);
  return { latest: latest[0] ?? null, lastFinished: finished[0] ?? null };
}

/**
 * Queues a run, or answers the one already queued or running (one at a time: a second click, or the
 * schedule firing during an operator's run, joins it). A run that stopped moving is marked failed.
 */
export async function requestVerification(db: Db, request: { trigger: 'admin' | 'schedule'; requestedBy: string | null; now: Date }): Promise<{ run: VerificationRow; created: boolean }> {
  await sql`
    update log_verifications set status = 'failed', error = 'The worker running this check stopped before it finished.', finished_at = ${request.now}, updated_at = ${request.now}
    where status in ('queued', 'running') and updated_at < ${new Date(request.now.getTime() - STALE_AFTER_MS)}`.execute(db);
  const id = randomUUID();
  const { rows } = await sql<VerificationRow>`
    insert into log_verifications (id, trigger, requested_by, status, created_at, updated_at)
    values (${id}, ${request.trigger}, ${request.requestedBy}, 'queued', ${request.now}, ${request.now})
    on conflict do nothing
    returning *`.execute(db);
  if (rows[0]) return { run: rows[0], created: true };
  const { rows: active } = await sql<VerificationRow>`select * from log_verifications where status in ('queued', 'running') limit 1`.execute(db);
  if (active[0]) return { run: active[0], created: false };
  // The active run finished between the insert and the read: queue again.
  return requestVerification(db, request);
}

type EventRow = {
  stream_id: string;
  stream_position: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
  event_id: string;
  prev_hash: string;
  hash: string;
};

/** Runs a queued run to its end (the worker's job). Answers the finished run. */
export async function runVerification(db: Db, id: string, options: { batchSize?: number; clock?: () => Date } = {}): Promise<VerificationRow> {
  const clock = options.clock ?? (() => new Date());
  const batchSize = options.batchSize ?? VERIFY_BATCH_EVENTS;
  const { rows: counted } = await sql<{ total: number; last: number | null }>`select count(*)::bigint as total, max(global_position) as last from events`.execute(db);
  const startedAt = clock();
  const claimed = await sql`
    update log_verifications set status = 'running', events_total = ${counted[0]!.total}, started_at = ${startedAt}, updated_at = ${startedAt}
    where id = ${id} and status = 'queued'`.execute(db);
  if (Number(claimed.numAffectedRows ?? 0) === 0) {
    const run = await findVerification(db, id);
    if (!run) throw new Error(`No verification run ${id}`);
    return run;
  }
  try {
    const pass = await walkTheLog(db, id, batchSize, clock);
    const truncated = await cutShortStreams(db);
    const problems = [...pass.problems, ...truncated.problems];
    const problemsCount = pass.problemsCount + truncated.count;
    const intact = problemsCount === 0;
    const finishedAt = clock();
    if (intact) await anchorHeads(db, id, counted[0]!.last ?? 0, finishedAt);

    await sql`
      update log_verifications set status = ${intact ? 'intact' : 'broken'}, events_checked = ${pass.checked}, streams_checked = ${pass.streams},
        problems_count = ${problemsCount}, first_problem = ${problems[0] ? JSON.stringify(problems[0]) : null}::jsonb,
        problems = ${JSON.stringify(problems.slice(0, PROBLEMS_KEPT))}::jsonb, heads_digest = ${pass.headsDigest},
        finished_at = ${finishedAt}, updated_at = ${finishedAt}
      where id = ${id}`.execute(db);
  } catch (error) {
    const failedAt = clock();
    await sql`
      update log_verifications set status = 'failed', error = ${error instanceof Error ? error.message : String(error)}, finished_at = ${failedAt}, updated_at = ${failedAt}
      where id = ${id}`.execute(db);
  }
  return (await findVerification(db, id))!;
}

/** The chain pass: keyset batches over the primary key, progress saved after each. */
async function walkTheLog(db: Db, id: string, batchSize: number, clock: () => Date) {
  let state: ChainState = chainStart;
  let cursor = { streamId: '', streamPosition: 0 };
  let checked = 0;
  let streams = 0;
  let problemsCount = 0;
  const problems: BrokenLink[] = [];
  // A digest of every stream's head as this pass saw it, in pass order: an operator keeps it with
  // the books, outside the database (docs/tamper-check.md).
  const heads = createHash('sha256');
  const closeStream = (last: ChainState['last']) => {
    if (last) heads.update(`${last.streamId}\t${last.streamPosition}\t${last.hash}\n`);
  };
  for (;;) {
    const { rows } = await sql<EventRow>`
      select stream_id, stream_position, type, schema_version, data, metadata, recorded_at, event_id, prev_hash, hash from events
      where (stream_id, stream_position) > (${cursor.streamId}, ${cursor.streamPosition})
      order by stream_id, stream_position limit ${batchSize}`.execute(db);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (state.last?.streamId !== row.stream_id) {
        closeStream(state.last);
        streams++;
      }
      const checkedLink = checkLink(state, {
        streamId: row.stream_id,
        streamPosition: row.stream_position,
        type: row.type,
        schemaVersion: row.schema_version,
        data: row.data,
        metadata: row.metadata,
        recordedAt: row.recorded_at.toISOString(),
        eventId: row.event_id,
        prevHash: row.prev_hash,
        hash: row.hash,
      });
      state = checkedLink.state;
      problemsCount += checkedLink.problems.length;
      for (const problem of checkedLink.problems) if (problems.length < PROBLEMS_KEPT) problems.push(problem);
      checked++;
    }
    const last = rows[rows.length - 1]!;
    cursor = { streamId: last.stream_id, streamPosition: last.stream_position };
    const now = clock();
    await sql`update log_verifications set events_checked = ${checked}, streams_checked = ${streams}, problems_count = ${problemsCount}, updated_at = ${now} where id = ${id}`.execute(db);
  }
  closeStream(state.last);
  return { checked, streams, problemsCount, problems, headsDigest: heads.digest('hex') };
}

/**
 * Heads anchored by earlier intact runs that are gone or changed: a stream whose tail was cut off
 * below what was once verified still has a valid chain, and only this comparison shows it.
 */
async function cutShortStreams(db: Db): Promise<{ count: number; problems: BrokenLink[] }> {
  const { rows } = await sql<{ stream_id: string; stream_position: number; hash: string; verified_at: Date; found: string | null; head: number | null; total: number }>`
    select h.stream_id, h.stream_position, h.hash, h.verified_at, e.hash as found,
      (select max(stream_position) from events x where x.stream_id = h.stream_id) as head,
      count(*) over ()::int as total
    from log_verified_heads h
    left join events e on e.stream_id = h.stream_id and e.stream_position = h.stream_position
    where e.hash is distinct from h.hash
    order by h.stream_id
    limit ${PROBLEMS_KEPT}`.execute(db);
  return {
    count: rows[0]?.total ?? 0,
    problems: rows.map((row) => ({
      stream_id: row.stream_id,
      stream_position: row.stream_position,
      kind: 'truncated' as const,
      problem:
        row.found === null
          ? `The stream was cut short: position ${row.stream_position}, verified on ${row.verified_at.toISOString()}, is gone (the stream now ends at ${row.head ?? 0}).`
          : `The event at position ${row.stream_position} is not the one verified on ${row.verified_at.toISOString()}.`,
      expected: `position ${row.stream_position} with hash ${row.hash}`,
      found: row.found === null ? `stream ends at position ${row.head ?? 0}` : `hash ${row.found}`,
    })),
  };
}

/** Records each stream's head (of the events the run counted at its start) as verified. Never moves a head back. */
async function anchorHeads(db: Db, id: string, upToGlobalPosition: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // One pass over the primary key of the whole log: longer than the 30 s every request gets.
    await sql`set local statement_timeout = '15min'`.execute(trx);
    await anchorHeadsIn(trx, id, upToGlobalPosition, now);
  });
}

async function anchorHeadsIn(db: Executor, id: string, upToGlobalPosition: number, now: Date): Promise<void> {
  await sql`
    insert into log_verified_heads (stream_id, stream_position, hash, verified_at, verification_id)
    select distinct on (stream_id) stream_id, stream_position, hash, ${now}::timestamptz, ${id}::uuid
    from events where global_position <= ${upToGlobalPosition}
    order by stream_id, stream_position desc
    on conflict (stream_id) do update set stream_position = excluded.stream_position, hash = excluded.hash,
      verified_at = excluded.verified_at, verification_id = excluded.verification_id
    where excluded.stream_position >= log_verified_heads.stream_position`.execute(db);
}

/** The schedule's run: queued and run here, in the schedule's own job; nothing when one is already under way. */
export async function runScheduledVerification(db: Db): Promise<{ id: string; status: VerificationStatus } | null> {
  const { run, created } = await requestVerification(db, { trigger: 'schedule', requestedBy: null, now: new Date() });
  if (!created) return null;
  const finished = await runVerification(db, run.id);
  return { id: finished.id, status: finished.status };
}
