import { type Kysely, sql } from 'kysely';

/**
 * The mail outbox (docs/mail-outbox.md): a mail is a row written in the transaction of the command
 * (or consumer) that decides to send it, delivered afterwards by a BullMQ job with retries, so an
 * answer never waits for the mail server and an outage loses nothing.
 *
 * Sign-in throttles (docs/security-auth.md): consecutive failures and locks per account (or per
 * unknown name, so a lock does not tell which names exist) and one global row against spraying.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table mail_outbox (
      id bigint generated always as identity primary key,
      dedupe_key text unique,
      category text not null,
      recipient text not null,
      subject text not null,
      body_text text,
      body_html text,
      contains_secret boolean not null default false,
      created_at timestamptz not null,
      next_attempt_at timestamptz not null,
      attempts integer not null default 0,
      last_error text,
      sent_at timestamptz,
      gave_up_at timestamptz
    )`.execute(db);
  await sql`create index mail_outbox_due on mail_outbox (next_attempt_at, id) where sent_at is null and gave_up_at is null`.execute(db);
  await sql`create index mail_outbox_by_recipient on mail_outbox (lower(recipient), category, created_at desc)`.execute(db);

  await sql`
    create table sign_in_throttles (
      key text primary key,
      failures integer not null default 0,
      window_started_at timestamptz not null,
      last_failure_at timestamptz,
      locked_until timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists sign_in_throttles`.execute(db);
  await sql`drop table if exists mail_outbox`.execute(db);
}
