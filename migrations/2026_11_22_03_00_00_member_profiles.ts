import { type Kysely, sql } from 'kysely';

/**
 * The member's profile and withdrawal bank account (seed 000 §3 "Profile", seed 001 §3.12): the
 * read table of the `member-profile-<id>` streams. A row exists once the member (or an admin)
 * recorded anything about the profile; no row means "has not submitted profile details".
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table member_profiles (
      member_id uuid primary key,
      photo_path text,
      address text,
      gender text check (gender in ('male', 'female')),
      profile_submitted_at timestamptz,
      bank_name text,
      bank_code text,
      bank_account_number text,
      bank_account_name text,
      bank_details_changed_at timestamptz,
      bank_editable boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists member_profiles`.execute(db);
}
