import { type Kysely, sql } from 'kysely';

/**
 * Money decided as it stood at the cause (docs/money-as-of-cause.md): held bonuses, the matching
 * cycle's per-member results (paid, capped, or not qualified with what carries) and its totals.
 * Frozen: never edit a migration that has landed; add a new one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // A held bonus is a row of its own until its payment is decided; then the row says how it ended.
  await sql`alter table wallet_entries drop constraint wallet_entries_entry_check`.execute(db);
  await sql`alter table wallet_entries add constraint wallet_entries_entry_check check (entry in ('credited', 'withheld', 'held'))`.execute(db);
  await sql`alter table wallet_entries add column settles_hold boolean not null default false`.execute(db);
  await sql`alter table wallet_entries add column resolution text check (resolution in ('credited', 'withheld'))`.execute(db);
  await sql`create index wallet_entries_held on wallet_entries (member_id) where entry = 'held' and resolution is null`.execute(db);
  await sql`alter table wallets add column total_held bigint not null default 0`.execute(db);

  // The compensation policy's working state: bonuses held for a member whose registration payment
  // awaited an admin's decision at the cause, until that payment is approved, declined or expires.
  await sql`
    create table held_bonuses (
      bonus_key text primary key,
      beneficiary_id uuid not null,
      payment_id uuid,
      decision jsonb not null,
      resolution text check (resolution in ('credited', 'withheld')),
      resolved_by_event_id uuid
    )`.execute(db);
  await sql`create index held_bonuses_open on held_bonuses (beneficiary_id) where resolution is null`.execute(db);

  // Where each member's facts entered the log, so policies judge "active", "registered" and "package"
  // at a cause by log position (commit order), not by wall-clock time (docs/money-as-of-cause.md).
  for (const fact of ['registered', 'activated', 'package']) {
    await sql.raw(`alter table members add column ${fact}_xid xid8, add column ${fact}_position bigint`).execute(db);
  }
  await sql`
    update members m set registered_xid = e.transaction_id, registered_position = e.global_position
    from events e where e.stream_id = 'member-' || m.id and e.type = 'MemberRegistered'`.execute(db);
  await sql`
    update members m set activated_xid = e.transaction_id, activated_position = e.global_position
    from events e where e.stream_id = 'member-' || m.id and e.type = 'MemberActivated'`.execute(db);
  await sql`
    update members m set package_xid = last.transaction_id, package_position = last.global_position
    from (
      select distinct on (e.stream_id) e.stream_id, e.transaction_id, e.global_position from events e
      where e.type in ('MemberRegistered', 'MemberActivated', 'MemberPackageUpgraded')
      order by e.stream_id, e.stream_position desc) last
    where last.stream_id = 'member-' || m.id`.execute(db);

  // One row per member with volume at a closed cycle: what was paid, capped, or why nothing was and what carries.
  await sql`
    create table matching_results (
      cycle_end date not null,
      member_id uuid not null,
      outcome text not null check (outcome in ('paid', 'capped', 'not_qualified')),
      reason text,
      left_pv bigint not null,
      right_pv bigint not null,
      pairs bigint not null,
      credited_kobo bigint not null,
      withheld_kobo bigint not null,
      carried_left bigint not null,
      carried_right bigint not null,
      primary key (cycle_end, member_id)
    )`.execute(db);
  await sql`create index matching_results_by_member on matching_results (member_id, cycle_end desc)`.execute(db);
  await sql`alter table matching_cycles add column members_capped integer not null default 0`.execute(db);
  await sql`alter table matching_cycles add column members_not_qualified integer not null default 0`.execute(db);
  await sql`alter table matching_cycles add column closed_by jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists matching_results, held_bonuses`.execute(db);
  await sql`alter table matching_cycles drop column if exists members_capped, drop column if exists members_not_qualified, drop column if exists closed_by`.execute(db);
  await sql`alter table wallets drop column if exists total_held`.execute(db);
  await sql`alter table wallet_entries drop column if exists settles_hold, drop column if exists resolution`.execute(db);
  for (const fact of ['registered', 'activated', 'package']) {
    await sql.raw(`alter table members drop column if exists ${fact}_xid, drop column if exists ${fact}_position`).execute(db);
  }
}
