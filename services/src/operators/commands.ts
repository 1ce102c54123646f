import { randomUUID } from 'node:crypto';
import { type Transaction, sql } from 'kysely';
import type { Database } from '../database';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import type { Consumer } from '../core/consumers';
import type { EventMetadata, RecordedEvent } from '../core/event-store';
import { consumerOperationsDecider } from './decider';
import { type ConsumerOperationEvent, consumerStream } from './events';

/**
 * The operators' console's commands (docs/operations.md): each records an event on
 * `consumer-<name>` with the acting admin, and updates its read tables in the same transaction.
 */

/** Inline projection: consumer_controls, read by the runner under the consumer's lock. */
async function projectControls(trx: Transaction<Database>, events: RecordedEvent<ConsumerOperationEvent>[]): Promise<void> {
  for (const event of events) {
    if (event.type !== 'ConsumerPaused' && event.type !== 'ConsumerResumed') continue;
    const paused = event.type === 'ConsumerPaused';
    const reason = event.type === 'ConsumerPaused' ? event.data.reason : null;
    await sql`
      insert into consumer_controls (name, paused, changed_by, changed_at, reason)
      values (${event.data.consumer}, ${paused}, ${event.metadata.actor.id}, ${event.recordedAt}, ${reason})
      on conflict (name) do update set paused = excluded.paused, changed_by = excluded.changed_by, changed_at = excluded.changed_at, reason = excluded.reason`.execute(trx);
  }
}

export async function pauseConsumer(ctx: CommandContext, consumer: Consumer, reason: string | null, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const { events } = await decideOnStream(trx, consumerStream(consumer.name), consumerOperationsDecider, { type: 'Pause', consumer: consumer.name, reason }, metadata);
    await projectControls(trx, events);
  });
}

export async function resumeConsumer(ctx: CommandContext, consumer: Consumer, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const { events } = await decideOnStream(trx, consumerStream(consumer.name), consumerOperationsDecider, { type: 'Resume', consumer: consumer.name }, metadata);
    await projectControls(trx, events);
  });
}

/** Records the retry with the event it had stopped on; the caller then rings the consumer. */
export async function retryConsumer(ctx: CommandContext, consumer: Consumer, metadata: EventMetadata): Promise<{ failedAt: number | null }> {
  return runInTransaction(ctx, async (trx) => {
    const { rows } = await sql<{ status: string; error: string | null; failed: number | null }>`
      select status, error, failed_global_position as failed from consumer_checkpoints where name = ${consumer.name}`.execute(trx);
    const row = rows[0];
    const failure = row?.status === 'failed' ? { globalPosition: row.failed, error: row.error ?? '' } : null;
    await decideOnStream(trx, consumerStream(consumer.name), consumerOperationsDecider, { type: 'Retry', consumer: consumer.name, failure }, metadata);
    return { failedAt: failure?.globalPosition ?? null };
  });
}

/** What a rebuild is of: an asynchronous projection (its consumer's stream) or an inline read model (its own stream). */
export type RebuildTarget = { name: string; stream: string; rebuildable: boolean };

export const consumerTarget = (consumer: Consumer): RebuildTarget => ({
  name: consumer.name,
  stream: consumerStream(consumer.name),
  rebuildable: consumer.kind === 'projection' && (consumer.tables?.length ?? 0) > 0,
});

/**
 * Records the request and its row in projection_rebuilds (queued); the caller queues the job.
 * One unfinished rebuild per read model: the stream refuses a second, and so does a unique index.
 */
export async function requestRebuild(ctx: CommandContext, target: Consumer | RebuildTarget, metadata: EventMetadata): Promise<{ rebuildId: string; requestEventId: string }> {
  const rebuildId = randomUUID();
  const { name, stream, rebuildable } = 'stream' in target ? target : consumerTarget(target);
  return runInTransaction(ctx, async (trx) => {
    const { events } = await decideOnStream(trx, stream, consumerOperationsDecider, { type: 'RequestRebuild', consumer: name, rebuildId, rebuildable }, metadata);
    const requested = events[0]!;
    await sql`
      insert into projection_rebuilds (id, consumer, status, requested_by, requested_at, requested_event_id)
      values (${rebuildId}, ${name}, 'queued', ${metadata.actor.id ?? 'anonymous'}, ${requested.recordedAt}, ${requested.eventId})`.execute(trx);
    return { rebuildId, requestEventId: requested.eventId };
  });
}

/** The worker's record of how a rebuild ended (once; a repeated finish records nothing). */
export async function finishRebuild(
  ctx: CommandContext,
  run: { consumer: string; rebuildId: string; requestEventId: string | null; stream?: string },
  outcome: { applied: number } | { error: string },
  now: Date,
): Promise<void> {
  const metadata: EventMetadata = { actor: { type: 'system', id: 'operators-worker' }, now: now.toISOString(), causation_id: run.requestEventId };
  await runInTransaction(ctx, async (trx) => {
    await decideOnStream(trx, run.stream ?? consumerStream(run.consumer), consumerOperationsDecider, { type: 'FinishRebuild', consumer: run.consumer, rebuildId: run.rebuildId, outcome }, metadata);
    const failed = 'error' in outcome;
    await sql`
      update projection_rebuilds set
        status = ${failed ? 'failed' : 'succeeded'}, finished_at = ${now},
        applied = ${failed ? sql`applied` : sql`${outcome.applied}::bigint`},
        total = ${failed ? sql`total` : sql`greatest(total, ${outcome.applied}::bigint)`},
        error = ${failed ? outcome.error.slice(0, 2000) : null}
      where id = ${run.rebuildId} and finished_at is null`.execute(trx);
  });
}
