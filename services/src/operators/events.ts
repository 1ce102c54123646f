import type { DomainEvent } from '../core/event-store';

/**
 * What operators did to the log's consumers (docs/operations.md), on one stream per consumer,
 * `consumer-<name>`, with the acting admin in each event's metadata. The rebuild's outcome is
 * recorded by the worker that ran it (actor system), caused by the request.
 */
export type ConsumerPaused = DomainEvent<'ConsumerPaused', { consumer: string; reason: string | null }>;
export type ConsumerResumed = DomainEvent<'ConsumerResumed', { consumer: string }>;
/** Asked after a fix: the position and error it had stopped on when the admin asked. */
export type ConsumerRetryRequested = DomainEvent<'ConsumerRetryRequested', { consumer: string; failed_global_position: number | null; error: string | null }>;
export type ProjectionRebuildRequested = DomainEvent<'ProjectionRebuildRequested', { consumer: string; rebuild_id: string }>;
export type ProjectionRebuilt = DomainEvent<'ProjectionRebuilt', { consumer: string; rebuild_id: string; applied: number }>;
export type ProjectionRebuildFailed = DomainEvent<'ProjectionRebuildFailed', { consumer: string; rebuild_id: string; error: string }>;

export type ConsumerOperationEvent = ConsumerPaused | ConsumerResumed | ConsumerRetryRequested | ProjectionRebuildRequested | ProjectionRebuilt | ProjectionRebuildFailed;

/** A write an admin made in Bull Board (retry, clean, pause a queue...), on stream `queues`. */
export type QueueActionTaken = DomainEvent<'QueueActionTaken', { method: string; path: string; status: number }>;

export const consumerStream = (consumer: string) => `consumer-${consumer}`;
/** An inline read model's rebuilds (read-models.ts): the same events as a projection's, on `read-model-<name>`. */
export const readModelStream = (name: string) => `read-model-${name}`;
export const QUEUES_STREAM = 'queues';

export const operatorEventTypes = [
  'ConsumerPaused',
  'ConsumerResumed',
  'ConsumerRetryRequested',
  'ProjectionRebuildRequested',
  'ProjectionRebuilt',
  'ProjectionRebuildFailed',
  'QueueActionTaken',
] as const;
