import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { ConsumerRecord, ConsumersOverview, OperatorAction, ReadModelRecord, RebuildRun } from '../contracts/operators';
import type { Consumer } from '../core/consumers';
import type { Db } from '../core/db';
import { operatorEventTypes } from './events';
import { liveWorkers } from './heartbeats';
import type { ReadModel } from '../read-models';

type Row = {
  status: string | null;
  last_global_position: number | null;
  events_applied: number | null;
  updated_at: Date | null;
  error: string | null;
  failed: number | null;
  failed_type: string | null;
  failed_stream: string | null;
  failed_stream_position: number | null;
  behind: number;
  oldest_behind: Date | null;
  applied_5m: number;
  window_seconds: number;
  paused: boolean | null;
  paused_by: string | null;
  paused_by_name: string | null;
  paused_at: Date | null;
  paused_reason: string | null;
};

type RebuildRow = {
  id: string;
  consumer: string;
  status: RebuildRun['status'];
  applied: number;
  total: number;
  requested_by: string;
  requested_by_name: string | null;
  requested_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  worker: string | null;
  error: string | null;
};

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Percent of a rebuild: what it applied of the events it counted; 100 only once swapped in. */
export function rebuildPercent(run: Pick<RebuildRow, 'status' | 'applied' | 'total'>): number {
  if (run.status === 'succeeded') return 100;
  if (run.total <= 0) return 0;
  return Math.min(99, Math.floor((run.applied / run.total) * 100));
}

function toRebuild(row: RebuildRow): RebuildRun {
  return {
    id: row.id,
    status: row.status,
    applied: Number(row.applied),
    total: Number(row.total),
    percent: rebuildPercent({ status: row.status, applied: Number(row.applied), total: Number(row.total) }),
    requested_by: { id: row.requested_by, name: row.requested_by_name },
    requested_at: row.requested_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    worker: row.worker,
    error: row.error,
  };
}

/** The latest rebuild of each consumer named. */
export async function latestRebuilds(db: Db, names: readonly string[]): Promise<Map<string, RebuildRun>> {
  const { rows } = await sql<RebuildRow>`
    select distinct on (r.consumer) r.id, r.consumer, r.status, r.applied::float8 as applied, r.total::float8 as total, r.requested_by,
      a.name as requested_by_name, r.requested_at, r.started_at, r.finished_at, r.worker, r.error
    from projection_rebuilds r left join admins a on a.id::text = r.requested_by
    where r.consumer = any(${sql.val([...names])}::text[])
    order by r.consumer, r.requested_at desc`.execute(db);
  return new Map(rows.map((row) => [row.consumer, toRebuild(row)]));
}

/** One consumer's health: checkpoint, lag in events and seconds, throughput, failure and pause. */
async function consumerRecord(db: Db, consumer: Consumer, rebuild: RebuildRun | null): Promise<ConsumerRecord> {
  const typeFilter = consumer.eventTypes ? sql`and e.type = any(${sql.val(consumer.eventTypes)}::text[])` : sql``;
  const { rows } = await sql<Row>`
    select c.status, c.last_global_position, c.events_applied::float8 as events_applied, c.updated_at, c.error,
      c.failed_global_position as failed, f.type as failed_type, f.stream_id as failed_stream, f.stream_position as failed_stream_position,
      lag.behind, lag.oldest as oldest_behind,
      coalesce(t.applied, 0)::float8 as applied_5m,
      extract(epoch from now() - (date_trunc('minute', now()) - interval '4 minutes'))::float8 as window_seconds,
      k.paused, k.changed_by as paused_by, a.name as paused_by_name, k.changed_at as paused_at, k.reason as paused_reason
    from (select 1) one
    left join consumer_checkpoints c on c.name = ${consumer.name}
    left join events f on f.global_position = c.failed_global_position
    left join consumer_controls k on k.name = ${consumer.name}
    left join admins a on a.id::text = k.changed_by
    cross join lateral (
      select count(*)::int as behind, min(e.recorded_at) as oldest from events e
      where (e.transaction_id, e.global_position) > (coalesce(c.last_transaction_id, '0'::xid8), coalesce(c.last_global_position, 0)) ${typeFilter}
    ) lag
    left join lateral (
      select sum(events) as applied from consumer_throughput
      where name = ${consumer.name} and minute >= date_trunc('minute', now()) - interval '4 minutes'
    ) t on true`.execute(db);
  const row = rows[0]!;
  const failed = row.status === 'failed';
  const paused = row.paused === true;
  return {
    name: consumer.name,
    kind: consumer.kind,
    event_types: consumer.eventTypes ? [...consumer.eventTypes] : null,
    tables: [...(consumer.tables ?? [])],
    rebuildable: consumer.kind === 'projection' && (consumer.tables?.length ?? 0) > 0,
    status: paused ? 'paused' : failed ? 'failed' : row.behind > 0 ? 'catching_up' : 'caught_up',
    checkpoint: { global_position: Number(row.last_global_position ?? 0), events_applied: Number(row.events_applied ?? 0), updated_at: iso(row.updated_at) },
    events_behind: row.behind,
    seconds_behind: row.oldest_behind ? Math.max(0, Math.round((Date.now() - row.oldest_behind.getTime()) / 1000)) : 0,
    events_per_minute: Math.round((row.applied_5m / Math.max(60, row.window_seconds)) * 60 * 10) / 10,
    failure: failed
      ? {
          global_position: row.failed,
          type: row.failed_type,
          stream_id: row.failed_stream,
          stream_position: row.failed_stream_position,
          message: row.error ?? '',
          since: iso(row.updated_at) ?? new Date().toISOString(),
        }
      : null,
    paused: paused ? { by: { id: row.paused_by ?? '', name: row.paused_by_name }, at: iso(row.paused_at)!, reason: row.paused_reason } : null,
    rebuild,
  };
}

export async function consumerRecords(db: Db, consumers: readonly Consumer[]): Promise<ConsumerRecord[]> {
  const rebuilds = await latestRebuilds(db, consumers.map((c) => c.name));
  const records: ConsumerRecord[] = [];
  for (const consumer of consumers) records.push(await consumerRecord(db, consumer, rebuilds.get(consumer.name) ?? null));
  return records;
}

/** The last things operators did (and the rebuilds' outcomes), newest first, with the admin's name. */
export async function recentOperatorActions(db: Db, limit = 20): Promise<OperatorAction[]> {
  const { rows } = await sql<{ id: number; type: string; stream_id: string; data: Record<string, unknown>; actor_type: string; actor_id: string | null; name: string | null; recorded_at: Date }>`
    select e.global_position as id, e.type, e.stream_id, e.data, e.metadata->'actor'->>'type' as actor_type, e.metadata->'actor'->>'id' as actor_id,
      a.name, e.recorded_at
    from events e left join admins a on a.id::text = e.metadata->'actor'->>'id' and e.metadata->'actor'->>'type' = 'admin'
    where e.type = any(${sql.val([...operatorEventTypes])}::text[])
    order by e.global_position desc limit ${limit}`.execute(db);
  return rows.map((row) => ({
    id: Number(row.id),
    type: row.type,
    stream_id: row.stream_id,
    data: row.data,
    actor: { type: row.actor_type, id: row.actor_id, name: row.name },
    recorded_at: row.recorded_at.toISOString(),
  }));
}

/** Every read model of the registry, inline and asynchronous, with its latest rebuild. */
export async function readModelRecords(db: Db, models: readonly ReadModel[]): Promise<ReadModelRecord[]> {
  const rebuilds = await latestRebuilds(db, models.map((m) => m.name));
  return models.map((model) => ({
    name: model.name,
    kind: model.kind,
    description: model.description,
    tables: [...model.tables],
    event_types: [...model.eventTypes],
    rebuild: rebuilds.get(model.name) ?? null,
  }));
}

export async function consumersOverview(db: Db, redis: Redis, prefix: string, consumers: readonly Consumer[], models: readonly ReadModel[] = []): Promise<ConsumersOverview> {
  const { rows } = await sql<{ head: number | null; last: Date | null }>`
    select max(global_position) as head, (select recorded_at from events order by global_position desc limit 1) as last from events`.execute(db);
  return {
    log: { head_position: Number(rows[0]?.head ?? 0), last_recorded_at: iso(rows[0]?.last ?? null) },
    consumers: await consumerRecords(db, consumers),
    read_models: await readModelRecords(db, models),
    workers: await liveWorkers(redis, prefix).catch(() => []),
    recent_actions: await recentOperatorActions(db),
  };
}
