import { type Kysely, sql } from 'kysely';

/**
 * Accounts (members, admins), sign-in state, and the first catalogue read tables.
 * Secrets (password hashes, one-time codes, sessions) live outside the immutable event log so they
 * can be changed and erased; the log records that they changed, never their values.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table members (
      id uuid primary key,
      username text not null,
      email text not null,
      first_name text not null,
      last_name text not null,
      phone text not null,
      package_id integer not null,
      reg_package_id integer not null,
      sponsor_id uuid,
      placement_parent_id uuid,
      placement_leg text check (placement_leg in ('left', 'right')),
      is_root boolean not null default false,
      email_verified_at timestamptz,
      enable_2fa boolean not null default false,
      activated_at timestamptz,
      deactivated boolean not null default false,
      is_stockist boolean not null default false,
      rank_id integer,
      withdrawal_amount bigint not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create unique index members_username on members (lower(username))`.execute(db);
  await sql`create unique index members_email on members (lower(email))`.execute(db);
  await sql`create index members_placement_parent on members (placement_parent_id)`.execute(db);
  await sql`create index members_sponsor on members (sponsor_id)`.execute(db);

  await sql`
    create table admins (
      id uuid primary key,
      name text not null,
      email text not null,
      role text not null check (role in ('admin', 'finance')),
      enable_2fa boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create unique index admins_email on admins (lower(email))`.execute(db);

  await sql`
    create table credentials (
      account_kind text not null check (account_kind in ('member', 'admin')),
      account_id uuid not null,
      password_hash text not null,
      changed_at timestamptz not null,
      primary key (account_kind, account_id)
    )`.execute(db);

  await sql`
    create table one_time_codes (
      id bigint generated always as identity primary key,
      account_kind text not null,
      account_id uuid not null,
      purpose text not null,
      code_hash text not null,
      attempts integer not null default 0,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index one_time_codes_lookup on one_time_codes (account_kind, account_id, purpose, id desc)`.execute(db);

  await sql`
    create table sessions (
      id uuid primary key,
      account_kind text not null,
      account_id uuid not null,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      ended_at timestamptz,
      end_reason text,
      ip text,
      user_agent text
    )`.execute(db);
  await sql`create index sessions_by_account on sessions (account_kind, account_id) where ended_at is null`.execute(db);

  await sql`
    create table daily_registrations (
      day date not null,
      package_id integer not null,
      registrations integer not null default 0,
      activations integer not null default 0,
      primary key (day, package_id)
    )`.execute(db);

  await sql`
    create table packages (
      id integer primary key,
      name text not null,
      point_value integer not null,
      registration_value bigint not null,
      pickup_amount bigint not null,
      matching_bonus_cap bigint not null,
      updated_at timestamptz not null
    )`.execute(db);

  await sql`
    create table ranks (
      id integer primary key,
      name text not null,
      points integer not null,
      is_global_profit_eligible boolean not null,
      description text not null,
      package_id integer not null,
      updated_at timestamptz not null
    )`.execute(db);

  await sql`
    create table settings (
      id integer primary key default 1 check (id = 1),
      "values" jsonb not null,
      updated_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists settings, ranks, packages, daily_registrations, sessions, one_time_codes, credentials, admins, members`.execute(db);
}
