import { type Kysely, sql } from 'kysely';

/**
 * member_search_rows holds its text already lowercased (issue 13 item 7; docs/decisions.md 83).
 * The members list's search is `text ILIKE '%q%'`, and PostgreSQL computes an ILIKE in a multibyte
 * encoding as `lower(text) LIKE lower(pattern)` (like.c, Generic_Text_IC_like): a lower() of
 * every candidate row the trigram index proposes, ~0.3 µs a row here, most of the recheck of the
 * 11,111 candidates of "mb12" (~3 ms of its ~5 ms heap scan). With the text stored as
 * `lower(membersSearchText)`, the list asks `search_lower LIKE lower(pattern)`: the same function
 * on the same text, so the same matches, without the per-row lower() (~0.02 µs a row).
 *
 * The column is renamed `search_lower` (it is no longer membersSearchText character for
 * character). The table is built afresh rather than updated in place: an update of every row
 * would leave half the table dead and rewrite the four indexes row by row; a fresh table in
 * creation order also keeps a word's matches registered together on few pages. Same indexes,
 * same names: trigrams (GIN) over the text, `(package_id, id) include (search_lower)`,
 * `(created_at, id) include (search_lower, package_id)`. The triggers on members stay; their
 * functions are replaced to write the lowercased text. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await rebuild(db, 'search_lower', sql`lower(first_name || ' ' || last_name || E'\\x1f' || username || E'\\x1f' || email)`, (row) =>
    sql`lower(${sql.raw(row)}first_name || ' ' || ${sql.raw(row)}last_name || E'\\x1f' || ${sql.raw(row)}username || E'\\x1f' || ${sql.raw(row)}email)`,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await rebuild(db, 'search_text', sql`first_name || ' ' || last_name || E'\\x1f' || username || E'\\x1f' || email`, (row) =>
    sql`${sql.raw(row)}first_name || ' ' || ${sql.raw(row)}last_name || E'\\x1f' || ${sql.raw(row)}username || E'\\x1f' || ${sql.raw(row)}email`,
  );
}

/** member_search_rows again with `column` holding `text` (over members' columns; `textOf('new.')` over a trigger's row). */
async function rebuild(db: Kysely<any>, column: string, text: ReturnType<typeof sql>, textOf: (row: string) => ReturnType<typeof sql>): Promise<void> {
  const col = sql.id(column);
  // No member changes between the copy and the swap (the migration's transaction holds this until it commits).
  await sql`lock table members in share row exclusive mode`.execute(db);
  await sql`
    create table member_search_rows_next (
      id uuid primary key,
      ${col} text not null,
      package_id integer not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`insert into member_search_rows_next (id, ${col}, package_id, created_at) select id, ${text}, package_id, created_at from members order by created_at, id`.execute(db);
  await sql`drop table member_search_rows`.execute(db);
  await sql`alter table member_search_rows_next rename to member_search_rows`.execute(db);
  await sql`alter table member_search_rows rename constraint member_search_rows_next_pkey to member_search_rows_pkey`.execute(db);
  await sql`create index member_search_rows_search on member_search_rows using gin (${col} gin_trgm_ops)`.execute(db);
  await sql`create index member_search_rows_by_package on member_search_rows (package_id, id) include (${col})`.execute(db);
  await sql`create index member_search_rows_newest on member_search_rows (created_at, id) include (${col}, package_id)`.execute(db);

  await sql`
    create or replace function member_search_rows_inserted() returns trigger language plpgsql as $$
    begin
      insert into public.member_search_rows (id, ${col}, package_id, created_at)
      select id, ${text}, package_id, created_at from new_members;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function member_search_rows_updated() returns trigger language plpgsql as $$
    begin
      if new.id <> old.id then
        delete from public.member_search_rows where id = old.id;
        insert into public.member_search_rows (id, ${col}, package_id, created_at)
        values (new.id, ${textOf('new.')}, new.package_id, new.created_at);
      else
        update public.member_search_rows set
          ${col} = ${textOf('new.')},
          package_id = new.package_id, created_at = new.created_at
        where id = new.id;
      end if;
      return null;
    end $$`.execute(db);
}
