import type { ColumnType, Generated } from 'kysely';

/**
 * The database's tables as kysely sees them (STYLE.md 17). Read tables belong to their capability;
 * this file only composes them.
 */
export type EventsTable = {
  global_position: Generated<number>;
  transaction_id: Generated<string>;
  stream_id: string;
  stream_position: number;
  type: string;
  schema_version: Generated<number>;
  data: unknown;
  metadata: unknown;
  recorded_at: Date;
  event_id: string;
  prev_hash: string;
  hash: string;
};

export type ConsumerCheckpointsTable = {
  name: string;
  last_transaction_id: ColumnType<string, unknown, unknown>;
  last_global_position: Generated<number>;
  events_applied: ColumnType<number, unknown, unknown>;
  status: Generated<string>;
  failed_global_position: number | null;
  error: string | null;
  updated_at: ColumnType<Date, unknown, unknown>;
};

export type UniqueKeysTable = { scope: string; key: string; owner: string; created_at: Generated<Date> };

export type IdempotentRequestsTable = {
  key: string;
  fingerprint: string;
  status_code: number;
  body: unknown;
  created_at: Generated<Date>;
};

export interface Database {
  events: EventsTable;
  consumer_checkpoints: ConsumerCheckpointsTable;
  unique_keys: UniqueKeysTable;
  idempotent_requests: IdempotentRequestsTable;
}
