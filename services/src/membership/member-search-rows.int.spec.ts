import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { httpHelpers } from '../../test/http';
import type { Executor } from '../core/db';
import { findReadModel, rebuildReadModel } from '../read-models';
import { listMembers } from './admin-members-routes';

/**
 * member_search_rows (migrations 2026_12_05_reads8_00_member_search_rows and
 * 2026_12_06_reads9_00_member_search_rows_lowercased; docs/decisions.md 82, 83): its triggers keep
 * it equal to what members gives now, whatever changes members, and the members list read through
 * it is the list computed over members (with ILIKE, as the other paths of the list search).
 */

type Row = { id: string; search_lower: string; package_id: number; created_at: string };

/** The table as its triggers left it, and as computed afresh from members (the search text: lower(membersSearchText)). */
async function heldAndFresh(db: Executor): Promise<{ held: Row[]; fresh: Row[] }> {
  const { rows: held } = await sql<Row>`select id, search_lower, package_id, created_at::text from member_search_rows order by id`.execute(db);
  const { rows: fresh } = await sql<Row>`
    select id, lower(first_name || ' ' || last_name || E'\\x1f' || username || E'\\x1f' || email) as search_lower, package_id, created_at::text
    from members order by id`.execute(db);
  return { held, fresh };
}

async function expectInStep(db: Executor, label: string): Promise<Row[]> {
  const { held, fresh } = await heldAndFresh(db);
  expect(held, label).toEqual(fresh);
  return held;
}

const insertMembers = (db: Executor, prefix: string, count: number) =>
  sql`
    insert into members (id, username, email, first_name, last_name, phone, package_id, reg_package_id, activated_at, deactivated, is_stockist, created_at, updated_at)
    select gen_random_uuid(), ${prefix} || k, ${prefix} || k || '@test.test', 'First' || k, 'Last' || k, '0803' || lpad(k::text, 7, '0'), 1 + k % 3, 1,
           now(), false, false, now() - make_interval(secs => k), now()
    from generate_series(1, ${count}::int) k`.execute(db);

describe('member_search_rows follows members', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.drop());

  it('Given members inserted, updated (each held column, and a column it does not hold), deleted and truncated, When each statement commits, Then member_search_rows equals a fresh computation from members', async () => {
    const db = t.db;
    await insertMembers(db, 'sr', 50);
    expect(await expectInStep(db, 'after a 50-row insert')).toHaveLength(50);
    const one = (await sql<{ id: string }>`select id from members where username = 'sr7'`.execute(db)).rows[0]!.id;
    const updates = [
      sql`update members set first_name = 'Ngozi' where id = ${one}`,
      sql`update members set last_name = 'Eze' where id = ${one}`,
      sql`update members set username = 'ngozi.eze' where id = ${one}`,
      sql`update members set email = 'ngozi@eze.test' where id = ${one}`,
      sql`update members set package_id = 3 where id = ${one}`,
      sql`update members set created_at = created_at - interval '1 day' where id = ${one}`,
      // Several rows at once, one statement.
      sql`update members set last_name = last_name || 'x', package_id = 2 where username like 'sr1%'`,
      // The same value again: the trigger's WHEN skips it, the row is unchanged.
      sql`update members set first_name = first_name where username like 'sr2%'`,
    ];
    for (const update of updates) {
      await update.execute(db);
      await expectInStep(db, update.compile(db).sql);
    }
    const held = (await heldAndFresh(db)).held.find((r) => r.id === one)!;
    expect(held.search_lower).toBe('ngozi eze\x1fngozi.eze\x1fngozi@eze.test');
    expect(held.package_id).toBe(3);
    // A column the table does not hold: the update trigger does not fire (nothing to redo).
    const before = (await sql<{ xmin: string }>`select xmin::text from member_search_rows where id = ${one}`.execute(db)).rows[0]!.xmin;
    await sql`update members set phone = '08099999999', is_stockist = true where id = ${one}`.execute(db);
    const after = (await sql<{ xmin: string }>`select xmin::text from member_search_rows where id = ${one}`.execute(db)).rows[0]!.xmin;
    expect(after, 'the row was not rewritten').toBe(before);
    await expectInStep(db, 'after an update of columns it does not hold');
    await sql`delete from members where username like 'sr3%'`.execute(db);
    expect(await expectInStep(db, 'after a delete')).toHaveLength(39);
    // Inserting and deleting in one transaction.
    await db.transaction().execute(async (trx) => {
      await insertMembers(trx, 'tx', 5);
      await sql`delete from members where username = 'tx2'`.execute(trx);
      await sql`update members set email = 'tx3@else.test' where username = 'tx3'`.execute(trx);
    });
    expect(await expectInStep(db, 'after a transaction')).toHaveLength(43);
    await sql`truncate members cascade`.execute(db);
    expect(await expectInStep(db, 'after truncate')).toHaveLength(0);
    await insertMembers(db, 'again', 3);
    expect(await expectInStep(db, 'after an insert following the truncate')).toHaveLength(3);
  });

  it('Given generated members, When the back office searches three or more characters newest first, oldest first or by package, Then the list through member_search_rows is the list computed over members', async () => {
    const db = t.db;
    await sql`insert into packages (id, name, point_value, registration_value, pickup_amount, matching_bonus_cap, updated_at)
      values (1, 'Gold Abba', 10, 1000, 0, 0, now()), (2, 'Bronze', 10, 1000, 0, 0, now()), (3, 'Gold Abba', 10, 1000, 0, 0, now())
      on conflict (id) do nothing`.execute(db);
    // Letters whose lower case PostgreSQL computes (é, É) beside ASCII: the narrow table holds lower(text) and
    // asks LIKE lower(pattern), the members paths ask ILIKE; both must find the same members.
    const word = fc.stringMatching(/^[abABéÉ]{1,4}$/);
    const member = fc.record({ first: word, last: word, user: word, package_id: fc.integer({ min: 1, max: 3 }), age: fc.integer({ min: 0, max: 5 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(member, { minLength: 0, maxLength: 40 }),
        fc.stringMatching(/^[abABéÉ]{3,4}$/),
        fc.constantFrom('created_at', 'package_name'),
        fc.constantFrom('ASC', 'DESC'),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 8 }),
        async (members, q, field, direction, start, length) => {
          await sql`delete from members`.execute(db);
          let k = 0;
          for (const m of members) {
            k++;
            // Equal creation times on purpose: the tie-break (id, the sort's way) decides.
            await sql`
              insert into members (id, username, email, first_name, last_name, phone, package_id, reg_package_id, activated_at, deactivated, is_stockist, created_at, updated_at)
              values (${randomUUID()}, ${`${m.user}_${k}`}, ${`${m.user}${k}@x.test`}, ${m.first}, ${m.last}, '08030000000', ${m.package_id}, 1, now(), false, false,
                      timestamptz '2026-01-01' + make_interval(secs => ${m.age}::int), now())`.execute(db);
          }
          const listed = await listMembers(db, { sort: JSON.stringify([field, direction]), range: JSON.stringify([start, start + length - 1]), filter: JSON.stringify({ q }) });
          const dir = sql.raw(direction);
          const order = field === 'created_at' ? sql`m.created_at ${dir}, m.id ${dir}` : sql`p.name ${dir}, m.id ${dir}`;
          const { rows: expected } = await sql<{ id: string }>`
            select m.id from members m join packages p on p.id = m.package_id
            where (m.first_name || ' ' || m.last_name) ilike ${`%${q}%`} or m.username ilike ${`%${q}%`} or m.email ilike ${`%${q}%`} or p.name ilike ${`%${q}%`}
            order by ${order}`.execute(db);
          expect(listed.rows.map((r) => r.id)).toEqual(expected.slice(start, start + length).map((r) => r.id));
          expect(listed.total).toBe(expected.length);
          await expectInStep(db, 'after the run');
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the search through member_search_rows is case-insensitive as ILIKE is', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.drop());

  it('Given members whose names differ only in case and accents, When the back office searches in either case, Then the list holds exactly the members ILIKE finds over members', async () => {
    const db = t.db;
    await sql`insert into packages (id, name, point_value, registration_value, pickup_amount, matching_bonus_cap, updated_at)
      values (1, 'Starter', 10, 1000, 0, 0, now()) on conflict (id) do nothing`.execute(db);
    const names = ['ÉLODIE', 'élodie', 'Élodie', 'Elodie', 'ELODIE', 'MÉLODIE', 'Melodie', 'ŞÜKRÜ', 'şükrü', 'ΣΟΦΙΑ', 'σοφια'];
    let k = 0;
    for (const name of names) {
      k++;
      await sql`
        insert into members (id, username, email, first_name, last_name, phone, package_id, reg_package_id, activated_at, deactivated, is_stockist, created_at, updated_at)
        values (${randomUUID()}, ${`cs${k}`}, ${`cs${k}@x.test`}, ${name}, 'Case', '08030000000', 1, 1, now(), false, false, timestamptz '2026-01-01' + make_interval(secs => ${k}::int), now())`.execute(db);
    }
    for (const q of ['ÉLO', 'élo', 'Élo', 'elo', 'ELO', 'LODIE', 'ŞÜK', 'şük', 'ΣΟΦ', 'σοφ', 'xyz'])
      for (const field of ['created_at', 'package_name'])
        for (const direction of ['ASC', 'DESC']) {
          const listed = await listMembers(db, { sort: JSON.stringify([field, direction]), range: JSON.stringify([0, 24]), filter: JSON.stringify({ q }) });
          const dir = sql.raw(direction);
          const order = field === 'created_at' ? sql`m.created_at ${dir}, m.id ${dir}` : sql`p.name ${dir}, m.id ${dir}`;
          const { rows: expected } = await sql<{ id: string }>`
            select m.id from members m join packages p on p.id = m.package_id
            where (m.first_name || ' ' || m.last_name) ilike ${`%${q}%`} or m.username ilike ${`%${q}%`} or m.email ilike ${`%${q}%`} or p.name ilike ${`%${q}%`}
            order by ${order}`.execute(db);
          const label = `${q} ${field} ${direction}`;
          expect(listed.rows.map((r) => r.id), label).toEqual(expected.map((r) => r.id));
          expect(listed.total, label).toBe(expected.length);
        }
    // The search text held is lower() of the member's text, as PostgreSQL computes it.
    const { rows } = await sql<{ search_lower: string }>`select s.search_lower from member_search_rows s join members m using (id) where m.username = 'cs1'`.execute(db);
    expect(rows[0]!.search_lower).toBe('élodie case\x1fcs1\x1fcs1@x.test');
  });
});

describe('member_search_rows through a rebuild of members', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  }, 120_000);
  afterAll(async () => app?.close());

  it('Given registered members whose rows were changed behind the log, When the members read model is rebuilt, Then member_search_rows again equals members', async () => {
    const h = httpHelpers(app);
    const ada = await h.registeredMember({ first_name: 'Ada', last_name: 'Searchrow' });
    await h.registeredMember({ first_name: 'Bola', last_name: 'Searchrow' });
    const db = app.runtime.db;
    await expectInStep(db, 'after registrations');
    // Rows the log does not explain: one renamed, one that never registered.
    await sql`update members set first_name = 'Tampered' where id = ${ada.id}`.execute(db);
    await insertMembers(db, 'ghost', 2);
    await expectInStep(db, 'after the changes behind the log');
    const { swapped } = await rebuildReadModel(db, findReadModel('members')!);
    expect(swapped?.find((s) => s.table === 'members')?.removed).toBeGreaterThanOrEqual(3);
    const held = await expectInStep(db, 'after the rebuild');
    const adaRow = held.find((r) => r.id === ada.id)!;
    expect(adaRow.search_lower.startsWith('ada searchrow\x1f')).toBe(true);
    expect(held.some((r) => r.search_lower.startsWith('first1 last1\x1fghost'))).toBe(false);
  });
});
