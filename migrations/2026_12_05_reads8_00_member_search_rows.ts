import { type Kysely, sql } from 'kysely';

/**
 * The members list's search and its order by package at 1,000,000 members, off the wide members
 * row (issue 13 item 7; docs/decisions.md 82). A search of three or more characters whose matches
 * are many old members ("mb12": 11,111) rechecked each match in `members` (~70 columns' rows, one
 * heap page per match): 35–76 ms newest first, 52–211 ms sorted by package.
 *
 * `member_search_rows` holds, per member, only what that search and those sorts read: the id, the
 * text the trigram search matches (character for character `membersSearchText` in
 * membership/admin-members-routes.ts and the expression of `members_search`), the package and the
 * registration time. Its indexes:
 * - `member_search_rows_search`: trigrams (GIN) over search_text;
 * - `member_search_rows_by_package (package_id, id) include (search_text)`: each package's members
 *   in id order, their text at hand (the order by package, index-only);
 * - `member_search_rows_newest (created_at, id) include (search_text, package_id)`: the list's
 *   default order and its tie-break, both directions (index-only).
 *
 * Kept equal to `members` by triggers on members: statement-level with transition tables for
 * insert and delete; a row-level one for updates, only of the held columns and only when one of
 * them changed (PostgreSQL refuses transition tables on a trigger with a column list, and a
 * statement-level update trigger without one would join every rank cascade's rows); truncate
 * empties it. A rebuild of members (core/rebuild.ts rebuildInline) deletes and inserts into the
 * live members table, so the triggers follow it; its fresh copy (`like … including all`) copies no
 * trigger. The functions name public.member_search_rows, so a rebuild's search_path changes nothing.
 * membership/member-search-rows.int.spec.ts checks it. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table member_search_rows (
      id uuid primary key,
      search_text text not null,
      package_id integer not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`
    insert into member_search_rows (id, search_text, package_id, created_at)
    select id, first_name || ' ' || last_name || E'\\x1f' || username || E'\\x1f' || email, package_id, created_at from members`.execute(db);
  await sql`create index member_search_rows_search on member_search_rows using gin (search_text gin_trgm_ops)`.execute(db);
  await sql`create index member_search_rows_by_package on member_search_rows (package_id, id) include (search_text)`.execute(db);
  await sql`create index member_search_rows_newest on member_search_rows (created_at, id) include (search_text, package_id)`.execute(db);

  await sql`
    create function member_search_rows_inserted() returns trigger language plpgsql as $$
    begin
      insert into public.member_search_rows (id, search_text, package_id, created_at)
      select id, first_name || ' ' || last_name || E'\\x1f' || username || E'\\x1f' || email, package_id, created_at from new_members;
      return null;
    end $$`.execute(db);
  await sql`
    create function member_search_rows_deleted() returns trigger language plpgsql as $$
    begin
      delete from public.member_search_rows s using old_members o where s.id = o.id;
      return null;
    end $$`.execute(db);
  await sql`
    create function member_search_rows_updated() returns trigger language plpgsql as $$
    begin
      if new.id <> old.id then
        delete from public.member_search_rows where id = old.id;
        insert into public.member_search_rows (id, search_text, package_id, created_at)
        values (new.id, new.first_name || ' ' || new.last_name || E'\\x1f' || new.username || E'\\x1f' || new.email, new.package_id, new.created_at);
      else
        update public.member_search_rows set
          search_text = new.first_name || ' ' || new.last_name || E'\\x1f' || new.username || E'\\x1f' || new.email,
          package_id = new.package_id, created_at = new.created_at
        where id = new.id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function member_search_rows_truncated() returns trigger language plpgsql as $$
    begin
      truncate public.member_search_rows;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger member_search_rows_inserted after insert on members
    referencing new table as new_members for each statement execute function member_search_rows_inserted()`.execute(db);
  await sql`
    create trigger member_search_rows_deleted after delete on members
    referencing old table as old_members for each statement execute function member_search_rows_deleted()`.execute(db);
  await sql`
    create trigger member_search_rows_updated after update of id, first_name, last_name, username, email, package_id, created_at on members
    for each row when (
      old.id is distinct from new.id or old.first_name is distinct from new.first_name or old.last_name is distinct from new.last_name
      or old.username is distinct from new.username or old.email is distinct from new.email
      or old.package_id is distinct from new.package_id or old.created_at is distinct from new.created_at)
    execute function member_search_rows_updated()`.execute(db);
  await sql`create trigger member_search_rows_truncated after truncate on members for each statement execute function member_search_rows_truncated()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['inserted', 'deleted', 'updated', 'truncated']) {
    await sql`drop trigger ${sql.id(`member_search_rows_${name}`)} on members`.execute(db);
    await sql`drop function ${sql.id(`member_search_rows_${name}`)}()`.execute(db);
  }
  await sql`drop table member_search_rows`.execute(db);
}
