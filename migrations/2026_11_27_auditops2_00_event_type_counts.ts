import { type Kysely, sql } from 'kysely';

/**
 * /metrics' events_appended_total without a `group by` over the whole log at each scrape (issue 12,
 * operators/event-counts.ts): events per type counted once, incrementally, from the position the
 * last scrape reached. The first scrape after this migration counts the log once.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table event_type_counts (type text primary key, appended bigint not null)`.execute(db);
  await sql`
    create table event_type_counts_position (
      only_row boolean primary key default true check (only_row),
      last_transaction_id xid8 not null,
      last_global_position bigint not null
    )`.execute(db);
  await sql`insert into event_type_counts_position (last_transaction_id, last_global_position) values ('0'::xid8, 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table event_type_counts_position`.execute(db);
  await sql`drop table event_type_counts`.execute(db);
}
