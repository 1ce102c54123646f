import { type Kysely, sql } from 'kysely';

/**
 * The notifications policy (services/src/notifications/policy.ts, docs/notifications.md) mails
 * decisions from the moment it is deployed: on a database that already has a log, its checkpoint
 * starts at the log's last event, so the history is never mailed. On an empty database there is
 * no row, and the policy starts at the log's beginning like every consumer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    insert into consumer_checkpoints (name, last_transaction_id, last_global_position)
    select 'member-notifications', transaction_id, global_position from events
    order by transaction_id desc, global_position desc limit 1
    on conflict (name) do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from consumer_checkpoints where name = 'member-notifications'`.execute(db);
}
