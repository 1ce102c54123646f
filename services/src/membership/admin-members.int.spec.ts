import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';

/**
 * The back office's members resource (seed 001 §2.10, §3.11; API.md §2): ra-data-simple-rest list
 * with tabs (status, is_stockist), q search, sort, range, getMany and getOne; admins and finance
 * staff read, members may not; the per-member panels' writes go through the existing command paths
 * and finance staff may not use them.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;
let active: Member;
let inactive: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken('admin');
  finance = await h.adminToken('finance');
  // A minute apart, so "newest first" has an order to show.
  t.clock.advanceMinutes(1);
  active = await h.activeMember({ first_name: 'Adaeze', last_name: 'Nwosu' });
  t.clock.advanceMinutes(1);
  inactive = await h.registeredMember({ first_name: 'Bolaji', last_name: 'Adeyemi' });
  t.clock.advanceMinutes(1);
  other = await h.activeMember({ first_name: 'Chinedu', last_name: 'Eze', package_id: 3 });
});
afterAll(async () => t.close());

async function list(params: { sort?: unknown; range?: unknown; filter?: unknown }, token = admin) {
  const query = Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(JSON.stringify(value))}`)
    .join('&');
  const response = await t.app.inject({ method: 'GET', url: `/api/admin/members${query ? `?${query}` : ''}`, headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, body: response.json() as any, range: response.headers['content-range'] as string | undefined };
}

/** getOne: the record itself, not the portal envelope. */
async function getOne(id: string, token = admin): Promise<Record<string, unknown>> {
  return (await h.call('GET', `/api/admin/members/${id}`, { token })).body as unknown as Record<string, unknown>;
}

describe('GET /api/admin/members', () => {
  it('lists every member newest first as a bare array with Content-Range, each with its uuid as id', async () => {
    const { status, body, range } = await list({ range: [0, 24] });
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    // The company root and the three members of this file.
    expect(range).toBe(`members 0-${body.length - 1}/4`);
    expect(body.map((m: any) => m.username)).toEqual([other.username, inactive.username, active.username, 'herbalhq']);
    expect(body[0]).toMatchObject({
      id: other.id,
      uuid: other.id,
      first_name: 'Chinedu',
      last_name: 'Eze',
      full_name: 'Chinedu Eze',
      email: other.email,
      phone: other.phone,
      package_id: 3,
      package_name: expect.any(String),
      photo_path: null,
      status: true,
      is_stockist: false,
      stockist_package_name: null,
      stockist_status: null,
      stockist_created_at: null,
    });
    expect(Date.parse(body[0].created_at)).not.toBeNaN();
  });

  it('filters the tabs: active, inactive, stockists', async () => {
    const activeList = await list({ filter: { status: true } });
    expect(activeList.body.map((m: any) => m.username).sort()).toEqual([active.username, other.username, 'herbalhq'].sort());
    expect(activeList.range).toMatch(/\/3$/);
    const inactiveList = await list({ filter: { status: false } });
    expect(inactiveList.body.map((m: any) => m.username)).toEqual([inactive.username]);
    expect(inactiveList.body[0].status).toBe(false);
    const stockists = await list({ filter: { is_stockist: true } });
    expect(stockists.status).toBe(200);
    expect(stockists.body).toEqual([]);
    expect(stockists.range).toBe('members */0');
  });

  it('searches q by first name, last name, username, e-mail or package, case-insensitively, and combines q with a tab', async () => {
    expect((await list({ filter: { q: 'adaeze' } })).body.map((m: any) => m.id)).toEqual([active.id]);
    expect((await list({ filter: { q: 'ADEYEMI' } })).body.map((m: any) => m.id)).toEqual([inactive.id]);
    expect((await list({ filter: { q: other.username } })).body.map((m: any) => m.id)).toEqual([other.id]);
    expect((await list({ filter: { q: active.email } })).body.map((m: any) => m.id)).toEqual([active.id]);
    expect((await list({ filter: { q: 'Adaeze Nwosu' } })).body.map((m: any) => m.id)).toEqual([active.id]);
    const packageName = (await list({ filter: { id: other.id } })).body[0].package_name as string;
    expect((await list({ filter: { q: packageName } })).body.map((m: any) => m.id)).toContain(other.id);
    expect((await list({ filter: { q: 'Bolaji', status: true } })).body).toEqual([]);
    // LIKE wildcards are searched as text.
    expect((await list({ filter: { q: '%' } })).body).toEqual([]);
  });

  it('searches one or two characters at the start of a first name, last name, username, e-mail or package name, case-insensitively, wildcards literally', async () => {
    const ids = async (q: string) => ((await list({ filter: { q } })).body as Array<{ id: string }>).map((m) => m.id).sort();
    // What a short search means (docs/decisions.md 75): a field that starts with it.
    const startsWith = async (q: string) =>
      (
        await sql<{ id: string }>`
          select m.id from members m left join packages p on p.id = m.package_id
          where m.first_name ilike ${`${q}%`} or m.last_name ilike ${`${q}%`} or m.username ilike ${`${q}%`} or m.email ilike ${`${q}%`} or p.name ilike ${`${q}%`}`.execute(t.runtime.db)
      ).rows.map((r) => r.id).sort();
    for (const q of ['AD', 'e', 'eZ', 'a ', ' n', '1', 'zq', 'ze', 'b']) expect(await ids(q), q).toEqual(await startsWith(q.trim()));
    // "ad" starts Adaeze and Adeyemi; "ze" ends Adaeze but starts nothing; from three characters the search is anywhere again.
    expect(await ids('ad')).toEqual(expect.arrayContaining([active.id, inactive.id].sort()));
    expect(await ids('ze')).not.toContain(active.id);
    expect(await ids('eze')).toEqual([active.id, other.id].sort());
    // "_" and "%" are text: no field starts with them.
    expect(await ids('_')).toEqual([]);
    expect(await ids('%')).toEqual([]);
  });

  it('sorts by package name in both directions, ties by id the same way, and pages through that order', async () => {
    const expected = async (direction: 'asc' | 'desc') =>
      (
        await sql<{ id: string }>`select m.id from members m join packages p on p.id = m.package_id
          order by p.name ${sql.raw(direction)}, m.id ${sql.raw(direction)}`.execute(t.runtime.db)
      ).rows.map((r) => r.id);
    for (const direction of ['ASC', 'DESC'] as const) {
      const all = await list({ sort: ['package_name', direction], range: [0, 9] });
      expect(all.status).toBe(200);
      expect(all.body.map((m: any) => m.id), direction).toEqual(await expected(direction === 'ASC' ? 'asc' : 'desc'));
      const names = all.body.map((m: any) => m.package_name as string);
      expect(new Set(names).size, 'more than one package, so the order shows').toBeGreaterThan(1);
      // Every page is the same slice of that order, with the list's total.
      for (const [from, to] of [[0, 1], [1, 2], [2, 3], [3, 4]]) {
        const page = await list({ sort: ['package_name', direction], range: [from, to] });
        expect(page.body.map((m: any) => m.id), `${direction} ${from}-${to}`).toEqual(all.body.slice(from!, to! + 1).map((m: any) => m.id));
        if (page.body.length > 0) expect(page.range).toBe(`members ${from}-${from! + page.body.length - 1}/${all.body.length}`);
      }
      // With a tab and a search.
      const active_ = await list({ sort: ['package_name', direction], range: [0, 9], filter: { status: true, q: 'eze' } });
      expect(active_.body.map((m: any) => m.id)).toEqual(all.body.map((m: any) => m.id).filter((id: string) => [active.id, other.id].includes(id)));
    }
  });

  it('sorts by a column in either direction and pages with range', async () => {
    const asc = await list({ sort: ['first_name', 'ASC'], range: [0, 9] });
    expect(asc.body.map((m: any) => m.first_name)).toEqual(['Adaeze', 'Bolaji', 'Chinedu', 'Herbal']);
    const desc = await list({ sort: ['full_name', 'DESC'], range: [0, 9] });
    expect(desc.body.map((m: any) => m.first_name)).toEqual(['Herbal', 'Chinedu', 'Bolaji', 'Adaeze']);
    const page2 = await list({ sort: ['first_name', 'ASC'], range: [2, 3] });
    expect(page2.range).toBe('members 2-3/4');
    expect(page2.body.map((m: any) => m.first_name)).toEqual(['Chinedu', 'Herbal']);
    const byPackage = await list({ sort: ['package_name', 'ASC'] });
    expect(byPackage.status).toBe(200);
  });

  it('shows, filters and sorts by the rank held, which lives in member_points (docs/decisions.md 86)', async () => {
    // The points policy's rows, written directly (this app runs no consumers): Adaeze holds Supervisor, Chinedu Associate.
    await sql`
      insert into member_points (member_id, personal_pv, cpv, left_pv, right_pv, rank_id, rank_achieved_at, updated_at)
      values (${active.id}, 0, 600, 0, 0, 2, now(), now()), (${other.id}, 0, 10, 0, 0, 1, now(), now())`.execute(t.runtime.db);
    try {
      const all = await list({ range: [0, 24] });
      const byName = new Map(all.body.map((m: any) => [m.first_name, m]));
      expect(byName.get('Adaeze')).toMatchObject({ rank_id: 2, rank_name: 'Supervisor' });
      expect(byName.get('Chinedu')).toMatchObject({ rank_id: 1, rank_name: 'Associate' });
      expect(byName.get('Bolaji')).toMatchObject({ rank_id: null, rank_name: null });
      const supervisors = await list({ filter: { rank_id: 2 } });
      expect(supervisors.body.map((m: any) => m.id)).toEqual([active.id]);
      expect(supervisors.range).toBe('members 0-0/1');
      // With a search and with a tab the rank still filters (the search's members-only paths are not taken).
      expect((await list({ filter: { rank_id: 1, q: 'Chined' } })).body.map((m: any) => m.id)).toEqual([other.id]);
      expect((await list({ filter: { rank_id: 2, q: 'Chined' } })).body).toEqual([]);
      expect((await list({ filter: { rank_id: 2, status: true }, sort: ['username', 'ASC'] })).body.map((m: any) => m.id)).toEqual([active.id]);
      expect((await list({ filter: { rank_name: 'Associate' } })).body.map((m: any) => m.id)).toEqual([other.id]);
      // Ascending: Associate, Supervisor, then the members holding none (PostgreSQL puts nulls last ascending).
      const ranked = await list({ sort: ['rank_id', 'ASC'], range: [0, 1] });
      expect(ranked.body.map((m: any) => m.id)).toEqual([other.id, active.id]);
      expect(ranked.range).toBe('members 0-1/4');
      expect((await getOne(active.id)).rank_id).toBe(2);
      expect((await h.call('GET', '/api/auth/user', { token: active.token })).body.data).toMatchObject({ rank_id: 2 });
      expect((await h.call('GET', `/api/users/${active.id}/user`, { token: admin })).body.data).toMatchObject({ rank_id: 2 });
    } finally {
      await sql`delete from member_points where member_id in (${active.id}, ${other.id})`.execute(t.runtime.db);
    }
  });

  it('answers getMany by filter {"id":[...]} and refuses bad parameters with a readable 422', async () => {
    const many = await list({ filter: { id: [active.id, inactive.id, 'not-a-uuid'] } });
    expect(many.status).toBe(200);
    expect(many.body.map((m: any) => m.id).sort()).toEqual([active.id, inactive.id].sort());
    const badSort = await list({ sort: ['password', 'ASC'] });
    expect(badSort.status).toBe(422);
    expect(badSort.body.message).toMatch(/sort/i);
    const badFilter = await list({ filter: { nope: 1 } });
    expect(badFilter.status).toBe(422);
    const badRange = await t.app.inject({ method: 'GET', url: '/api/admin/members?range=oops', headers: { authorization: `Bearer ${admin}` } });
    expect(badRange.statusCode).toBe(422);
    expect(badRange.json().message).toMatch(/range/);
  });

  it('is for admins and finance staff: members get 403, strangers 401', async () => {
    expect((await list({}, finance)).status).toBe(200);
    expect((await list({}, active.token)).status).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/members' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/admin/members/:id', () => {
  it('answers one member with the profile flags the panels switch', async () => {
    const { status, body } = await h.call('GET', `/api/admin/members/${active.id}`, { token: finance });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: active.id,
      username: active.username,
      status: true,
      sponsor_username: 'herbalhq',
      has_profile: false,
      bank_editable: true,
      enable_2fa: false,
      email_verified: true,
      address: null,
      bank_account_number: null,
    });
  });

  it('404 for an unknown member, 422 for a malformed id, 403 for a member', async () => {
    const unknown = await h.call('GET', '/api/admin/members/6f1b1f7e-8d7a-4a4e-9a38-3b5c8f0d2a11', { token: admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Member not found.');
    const malformed = await h.call('GET', '/api/admin/members/not-a-uuid', { token: admin });
    expect(malformed.status).toBe(422);
    expect(malformed.body.message).toBe('Member not found.');
    expect((await h.call('GET', `/api/admin/members/${active.id}`, { token: active.token })).status).toBe(403);
  });
});

describe('the per-member panels write through the existing command paths', () => {
  it('admin edits the profile; the record shows it; finance may not', async () => {
    const body = { first_name: 'Ada', last_name: 'Nwosu', phone: '08051112222', gender: 'female', address: '3 Marina Road, Lagos' };
    expect((await h.call('POST', `/api/users/${active.id}/update-profile`, { token: finance, body })).status).toBe(403);
    const saved = await h.call('POST', `/api/users/${active.id}/update-profile`, { token: admin, body });
    expect(saved.status, saved.body.message).toBe(200);
    expect(saved.body.message).toBe('data updated successfully');
    const { body: record } = await h.call('GET', `/api/admin/members/${active.id}`, { token: admin });
    expect(record).toMatchObject({ first_name: 'Ada', full_name: 'Ada Nwosu', phone: '08051112222', gender: 'female', address: '3 Marina Road, Lagos', has_profile: true });
  });

  it('bank-editable and 2FA switches: admin toggles, the record follows, finance is refused', async () => {
    expect((await h.call('PUT', `/api/users/${active.id}/bank-editable`, { token: finance, body: { bank_editable: false } })).status).toBe(403);
    const off = await h.call('PUT', `/api/users/${active.id}/bank-editable`, { token: admin, body: { bank_editable: false } });
    expect(off.body.message).toBe('The member can no longer change their bank details');
    expect((await getOne(active.id)).bank_editable).toBe(false);
    const on = await h.call('PUT', `/api/users/${active.id}/bank-editable`, { token: admin, body: { bank_editable: true } });
    expect(on.body.message).toBe('The member can now change their bank details');

    expect((await h.call('PUT', `/api/users/${active.id}/toggle-2fa`, { token: finance, body: { enable_2fa: true } })).status).toBe(403);
    const twoFactor = await h.call('PUT', `/api/users/${active.id}/toggle-2fa`, { token: admin, body: { enable_2fa: true } });
    expect(twoFactor.status).toBe(200);
    expect((await getOne(active.id)).enable_2fa).toBe(true);
    await h.call('PUT', `/api/users/${active.id}/toggle-2fa`, { token: admin, body: { enable_2fa: false } });
  });

  it('send message mails the member; password change and payout are admin-only', async () => {
    expect((await h.call('POST', `/api/users/${inactive.id}/send-message`, { token: finance, body: { subject: 'Hi', body: 'Hello' } })).status).toBe(403);
    const sent = await h.call('POST', `/api/users/${inactive.id}/send-message`, { token: admin, body: { subject: 'Your registration', body: 'Please upload your receipt.' } });
    expect(sent.status).toBe(200);
    expect(sent.body.message).toBe('Message Sent successfully');
    const mail = await t.mail.waitFor((m) => m.to.includes(inactive.email) && m.subject.includes('Your registration'));
    expect(mail.text).toContain('Please upload your receipt.');

    expect((await h.call('PUT', `/api/auth/${active.id}/change-user-password`, { token: finance, body: { password: 'new secret pass' } })).status).toBe(403);
    expect((await h.call('POST', `/api/payments/${active.id}/bank-transfer`, { token: finance, body: { amount: 100, reason: 'Bonus' } })).status).toBe(403);
  });
});
