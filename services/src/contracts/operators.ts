import { z } from 'zod';

/** The operators' console (docs/operations.md): GET /api/admin/consumers and its actions. */
export const consumerStatus = z.enum(['caught_up', 'catching_up', 'failed', 'paused']);
export type ConsumerStatus = z.infer<typeof consumerStatus>;

const adminRef = z.object({ id: z.string(), name: z.string().nullable() });

export const rebuildRun = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  applied: z.number(),
  total: z.number(),
  /** 0–100; 100 only once the rebuilt tables were swapped in. */
  percent: z.number(),
  requested_by: adminRef,
  requested_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  worker: z.string().nullable(),
  error: z.string().nullable(),
});
export type RebuildRun = z.infer<typeof rebuildRun>;

export const consumerRecord = z.object({
  name: z.string(),
  kind: z.enum(['projection', 'policy']),
  event_types: z.array(z.string()).nullable(),
  tables: z.array(z.string()),
  rebuildable: z.boolean(),
  status: consumerStatus,
  checkpoint: z.object({ global_position: z.number(), events_applied: z.number(), updated_at: z.string().nullable() }),
  events_behind: z.number(),
  seconds_behind: z.number(),
  /** Events applied per minute over the last five minutes. */
  events_per_minute: z.number(),
  failure: z
    .object({ global_position: z.number().nullable(), type: z.string().nullable(), stream_id: z.string().nullable(), stream_position: z.number().nullable(), message: z.string(), since: z.string() })
    .nullable(),
  paused: z.object({ by: adminRef, at: z.string(), reason: z.string().nullable() }).nullable(),
  rebuild: rebuildRun.nullable(),
});
export type ConsumerRecord = z.infer<typeof consumerRecord>;

export const workerRecord = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number(),
  started_at: z.string(),
  beat_at: z.string(),
  consumers: z.array(z.string()),
  draining: z.array(z.string()),
  rebuilding: z.object({ consumer: z.string(), rebuild_id: z.string() }).nullable(),
  queues: z.array(z.string()),
  rss_bytes: z.number(),
});
export type WorkerRecord = z.infer<typeof workerRecord>;

export const operatorAction = z.object({
  id: z.number(),
  type: z.string(),
  stream_id: z.string(),
  data: z.record(z.string(), z.unknown()),
  actor: z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  recorded_at: z.string(),
});
export type OperatorAction = z.infer<typeof operatorAction>;

/** One read model of the registry (services/src/read-models.ts): inline or asynchronous, with its latest rebuild. */
export const readModelRecord = z.object({
  name: z.string(),
  kind: z.enum(['inline', 'projection', 'policy-state']),
  description: z.string(),
  tables: z.array(z.string()),
  event_types: z.array(z.string()),
  rebuild: rebuildRun.nullable(),
});
export type ReadModelRecord = z.infer<typeof readModelRecord>;

export const consumersOverview = z.object({
  log: z.object({ head_position: z.number(), last_recorded_at: z.string().nullable() }),
  consumers: z.array(consumerRecord),
  read_models: z.array(readModelRecord),
  workers: z.array(workerRecord),
  recent_actions: z.array(operatorAction),
});
export type ConsumersOverview = z.infer<typeof consumersOverview>;

export const consumerName = z.object({ name: z.string().min(1).max(100) });
export const readModelName = consumerName;
export const pauseBody = z.object({ reason: z.string().trim().max(300, 'The reason is at most 300 characters.').optional().nullable() });
