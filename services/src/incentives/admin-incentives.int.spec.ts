import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { pngOfSize, tinyPng } from '../../test/multipart';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;

type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;
const q = (params: Record<string, unknown>) => new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)]))).toString();
const list = (resource: string, params: Record<string, unknown> = {}, token = admin) => h.call('GET', `/api/admin/${resource}?${q(params)}`, { token });
const ids = (response: { body: unknown }) => (response.body as Array<{ id: unknown }>).map((row) => row.id);
const claim = (member: Member, rankId: number, incentiveId: number) => h.call('POST', `/api/incentive-claims/${member.id}/create`, { token: member.token, body: { rank_id: rankId, incentive_id: incentiveId } });
const decide = (claimId: string, action: 'approve' | 'decline', token = admin) => h.call('PUT', `/api/incentive-claims/${claimId}/${action}`, { token, body: {} });
const awardTotal = async (memberId: string) => (await h.call('GET', `/api/bonuses/${memberId}/bonus-stats`, { token: admin })).body.data.award_bonus as number;
const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

// Seeded: rank 1 Associate (0 points) → polo shirt ₦15,000; rank 2 Supervisor → Android phone ₦120,000; rank 3 Manager → Laptop ₦450,000.
const POLO = 1;
const PHONE = 2;
const LAPTOP = 3;

let sponsor: Member;
let winner: Member;
let left: Member;
let right: Member;
let phoneClaim: string;
let poloClaim: string;
let sponsorClaim: string;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  finance = await h.adminToken('finance');
  // The Supervisor rank needs 50 CPV in this test company (edited through the back office's own resource).
  const rank = (await h.call('GET', '/api/admin/ranks/2', { token: admin })).body;
  const lowered = await h.call('PUT', '/api/admin/ranks/2', { token: admin, body: { ...rank, points: 50, package_id: 1 } });
  expect(lowered.status, lowered.body.message).toBe(200);

  sponsor = await h.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
  winner = await h.registeredMember({ referrer: sponsor.username, package_id: 2 }, { asParent: true });
  await h.payByReceipt(winner);
  left = await h.activeMember({ referrer: winner.username, package_id: 2 });
  right = await h.registeredMember({ referrer: winner.username, package_id: 2 });
  await settleConsumers(t.runtime.db);

  // Three requests waiting: the winner's phone and polo shirt, the sponsor's polo shirt.
  const claims = [await claim(winner, 2, PHONE), await claim(winner, 1, POLO), await claim(sponsor, 1, POLO)];
  for (const made of claims) expect(made.status, made.body.message).toBe(200);
  [phoneClaim, poloClaim, sponsorClaim] = claims.map((made) => made.body.data.id as string) as [string, string, string];
});
afterAll(async () => t.close());

describe('GET /api/admin/incentive-claims (Incentive Requests)', () => {
  it('lists the requests with who, package, CPV, rank, incentive and cash equivalence, by status, sorted, in ranges', async () => {
    const pending = await list('incentive-claims', { filter: { status: 'processing' }, sort: ['created_at', 'ASC'], range: [0, 24] });
    expect(pending.status, pending.body.message).toBe(200);
    expect(pending.headers['content-range']).toBe('incentive-claims 0-2/3');
    expect(ids(pending)).toEqual([phoneClaim, poloClaim, sponsorClaim]);
    expect((pending.body as unknown as unknown[])[0]).toMatchObject({
      id: phoneClaim,
      first_name: winner.first_name,
      last_name: winner.last_name,
      username: winner.username,
      package_name: 'Bronze',
      cpv: 50,
      rank_name: 'Supervisor',
      incentive: 'Android phone',
      worth: 120_000,
      status: 'processing',
      created_at: expect.any(String),
    });

    const page = await list('incentive-claims', { filter: { status: 'processing' }, sort: ['created_at', 'ASC'], range: [1, 1] });
    expect(page.headers['content-range']).toBe('incentive-claims 1-1/3');
    expect(ids(page)).toEqual([poloClaim]);

    const byWorth = await list('incentive-claims', { sort: ['worth', 'DESC'], filter: { worth_gte: 100_000 } });
    expect(ids(byWorth)).toEqual([phoneClaim]);

    const searched = await list('incentive-claims', { filter: { q: sponsor.username } });
    expect(ids(searched)).toEqual([sponsorClaim]);
    const byName = await list('incentive-claims', { filter: { q: `${winner.first_name} ${winner.last_name}` }, sort: ['created_at', 'ASC'] });
    expect(ids(byName)).toEqual([phoneClaim, poloClaim]);
    expect((await list('incentive-claims', { filter: { status: 'approved' } })).headers['content-range']).toBe('incentive-claims */0');
  });

  it('answers getMany and getOne, and bad parameters with a readable 4xx', async () => {
    const many = await h.call('GET', `/api/admin/incentive-claims?${q({ filter: { id: [sponsorClaim, phoneClaim] } })}`, { token: admin });
    expect(many.status).toBe(200);
    expect(new Set(ids(many))).toEqual(new Set([sponsorClaim, phoneClaim]));
    expect(await h.call('GET', `/api/admin/incentive-claims/${poloClaim}`, { token: admin })).toMatchObject({ status: 200, body: { id: poloClaim, incentive: 'Branded polo shirt and herbal starter kit' } });
    expect(await h.call('GET', '/api/admin/incentive-claims/not-a-claim', { token: admin })).toMatchObject({ status: 404, body: { message: 'Incentive claim not found.' } });
    expect(await list('incentive-claims', { filter: { colour: 'red' } })).toMatchObject({ status: 422, body: { message: 'Cannot filter by colour.' } });
    expect(await list('incentive-claims', { sort: ['password', 'ASC'] })).toMatchObject({ status: 422, body: { message: 'Cannot sort by password.' } });
    expect(await list('incentive-claims', { filter: { cpv_gte: 'lots' } })).toMatchObject({ status: 422, body: { message: 'The filter cpv_gte must be a number.' } });
  });

  it('is for administrators: a member is refused, finance staff read but cannot approve or edit', async () => {
    for (const resource of ['incentive-claims', 'incentives', 'ranks']) {
      expect((await list(resource, {}, winner.token)).status, resource).toBe(403);
      expect((await list(resource, {}, finance)).status, resource).toBe(200);
    }
    expect((await h.call('GET', `/api/admin/incentive-claims/${phoneClaim}`, { token: finance })).status).toBe(200);
    expect((await decide(phoneClaim, 'approve', finance)).status).toBe(403);
    expect((await decide(phoneClaim, 'decline', finance)).status).toBe(403);
    expect((await h.call('PUT', `/api/admin/incentives/${PHONE}`, { token: finance, body: { worth: 1 } })).status).toBe(403);
    expect((await h.call('POST', '/api/admin/incentives', { token: finance, body: { rank_id: 1, incentive: 'x', worth: 1 } })).status).toBe(403);
    expect((await h.call('PUT', '/api/admin/ranks/1', { token: finance, body: { package_id: 1 } })).status).toBe(403);
    expect((await h.call('POST', '/api/admin/ranks', { token: finance, body: { name: 'x', points: 1, is_global_profit_eligible: 0, package_id: 1 } })).status).toBe(403);
    expect((await h.call('PUT', `/api/admin/incentives/${PHONE}`, { token: winner.token, body: { worth: 1 } })).status).toBe(403);
    expect((await list('incentive-claims', {}, '')).status).toBe(401);
  });

  it('approving pays the award bonuses; the request leaves the pending list', async () => {
    const approved = await decide(phoneClaim, 'approve');
    expect(approved).toMatchObject({ status: 200, body: { message: 'Incentive approved successfully', data: { id: phoneClaim, status: 'approved' } } });
    await settleConsumers(t.runtime.db);
    // ₦120,000 award: the sponsor 5% = ₦6,000, the active placement child 2% = ₦2,400, the unpaid one nothing.
    expect(await awardTotal(sponsor.id)).toBe(6_000);
    expect(await awardTotal(left.id)).toBe(2_400);
    expect(await awardTotal(right.id)).toBe(0);

    const pending = await list('incentive-claims', { filter: { status: 'processing' }, sort: ['created_at', 'ASC'] });
    expect(ids(pending)).toEqual([poloClaim, sponsorClaim]);
    const done = await list('incentive-claims', { filter: { status: 'approved' } });
    expect(done.body).toEqual([expect.objectContaining({ id: phoneClaim, status: 'approved', decided_at: expect.any(String) })]);
  });

  it('declining lets the member claim again', async () => {
    const declined = await decide(poloClaim, 'decline');
    expect(declined).toMatchObject({ status: 200, body: { message: 'Incentive declined successfully', data: { status: 'declined' } } });
    const again = await claim(winner, 1, POLO);
    expect(again).toMatchObject({ status: 200, body: { message: 'incentive claimed successfully', data: { status: 'processing' } } });
    const pending = await list('incentive-claims', { filter: { status: 'processing' }, sort: ['created_at', 'ASC'] });
    expect(ids(pending)).toEqual([sponsorClaim, again.body.data.id]);
    expect(ids(await list('incentive-claims', { filter: { status: ['declined', 'approved'] }, sort: ['created_at', 'ASC'] }))).toEqual([phoneClaim, poloClaim]);
  });
});

describe('/api/admin/incentives (Official Ranks and Incentives)', () => {
  it('lists the incentives with their rank, CPV and cash equivalent; getMany and getOne', async () => {
    const all = await list('incentives', { sort: ['points', 'ASC'], range: [0, 24] });
    expect(all.status).toBe(200);
    expect(all.headers['content-range']).toBe('incentives 0-6/7');
    expect((all.body as unknown as unknown[])[2]).toEqual({ id: LAPTOP, rank_id: 3, name: 'Manager', points: 2_000, incentive: 'Laptop', worth: 450_000, file_path: null });
    expect(ids(await list('incentives', { sort: ['worth', 'DESC'], range: [0, 1] }))).toEqual([7, 6]);
    expect(ids(await list('incentives', { filter: { q: 'laptop' } }))).toEqual([LAPTOP]);
    expect(ids(await list('incentives', { filter: { id: [LAPTOP, POLO] }, sort: ['id', 'ASC'] }))).toEqual([POLO, LAPTOP]);
    expect(await h.call('GET', `/api/admin/incentives/${PHONE}`, { token: admin })).toMatchObject({ status: 200, body: { id: PHONE, name: 'Supervisor', points: 50, incentive: 'Android phone' } });
    expect(await h.call('GET', '/api/admin/incentives/999', { token: admin })).toMatchObject({ status: 404, body: { message: 'Incentive not found.' } });
  });

  it('an edit (the whole record sent back, as react-admin does) records an event and shows in the list; an image is checked and stored', async () => {
    const record = (await h.call('GET', `/api/admin/incentives/${LAPTOP}`, { token: admin })).body;
    const edited = await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: { ...record, incentive: 'Laptop and printer', worth: 520_000.5 } });
    expect(edited).toMatchObject({ status: 200, body: { id: LAPTOP, incentive: 'Laptop and printer', worth: 520_000.5, name: 'Manager', file_path: null } });

    const events = await h.call('GET', `/api/admin/events?${q({ filter: { stream_id: `incentive-${LAPTOP}`, type: 'IncentiveUpdated' } })}`, { token: admin });
    expect(events.body).toEqual([
      expect.objectContaining({
        type: 'IncentiveUpdated',
        data: { incentive_id: LAPTOP, changes: { incentive: 'Laptop and printer', worth_kobo: 52_000_050 }, previous: { incentive: 'Laptop', worth_kobo: 45_000_000 } },
        metadata: expect.objectContaining({ actor: expect.objectContaining({ type: 'admin' }) }),
      }),
    ]);
    const listed = await list('incentives', { filter: { id: [LAPTOP] } });
    expect(listed.body).toEqual([expect.objectContaining({ incentive: 'Laptop and printer', worth: 520_000.5 })]);

    // Sent again unchanged: nothing more recorded.
    await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: edited.body });
    expect((await h.call('GET', `/api/admin/events?${q({ filter: { stream_id: `incentive-${LAPTOP}`, type: 'IncentiveUpdated' } })}`, { token: admin })).body).toHaveLength(1);

    const withImage = await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: { image: dataUrl(tinyPng()) } });
    expect(withImage.status, withImage.body.message).toBe(200);
    const filePath = (withImage.body as unknown as { file_path: string }).file_path;
    expect(filePath).toMatch(/^storage\/incentives\/.+\.png$/);
    expect((await t.app.inject({ method: 'GET', url: `/${filePath}` })).statusCode).toBe(200);
    // No image chosen: the image stays.
    expect((await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: { worth: 500_000, image: null } })).body).toMatchObject({ file_path: filePath, worth: 500_000 });

    expect(await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: { image: dataUrl(pngOfSize(500_001)) } })).toMatchObject({ status: 422, body: { message: 'Image size should not exceed 500kB' } });
    expect(await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: { image: dataUrl(Buffer.from('not an image at all'), 'text/plain') } })).toMatchObject({ status: 422, body: { message: 'The file must be a JPEG, PNG or WebP image.' } });
    expect(await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: { image: 'http://example.test/x.png' } })).toMatchObject({ status: 422, body: { message: 'The image must be sent as a data URL.' } });
    expect(await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: { worth: -5 } })).toMatchObject({ status: 422, body: { message: 'The worth cannot be negative.' } });
    expect(await h.call('PUT', `/api/admin/incentives/${LAPTOP}`, { token: admin, body: { rank_id: 1 } })).toMatchObject({ status: 422, body: { message: 'This rank already has an incentive; edit that one instead.' } });
    expect(await h.call('PUT', '/api/admin/incentives/999', { token: admin, body: { worth: 1 } })).toMatchObject({ status: 404, body: { message: 'Incentive not found.' } });
  });
});

describe('/api/admin/ranks', () => {
  it('lists, reads, edits and creates ranks through the catalogue commands; creates an incentive for the new rank', async () => {
    const all = await list('ranks', { sort: ['points', 'ASC'], range: [0, 24] });
    expect(all.status).toBe(200);
    expect(all.headers['content-range']).toBe('ranks 0-6/7');
    expect((all.body as unknown as unknown[])[1]).toMatchObject({ id: 2, name: 'Supervisor', points: 50, package_id: 1, package: 1, package_name: expect.any(String), is_global_profit_eligible: 0 });
    expect(ids(await list('ranks', { filter: { is_global_profit_eligible: 1 }, sort: ['id', 'ASC'] })).every((id) => Number(id) >= 5)).toBe(true);
    expect(ids(await list('ranks', { filter: { id: [3, 1] }, sort: ['id', 'ASC'] }))).toEqual([1, 3]);
    expect(await h.call('GET', '/api/admin/ranks/99', { token: admin })).toMatchObject({ status: 404, body: { message: 'Rank not found.' } });

    const record = (await h.call('GET', '/api/admin/ranks/3', { token: admin })).body;
    const edited = await h.call('PUT', '/api/admin/ranks/3', { token: admin, body: { ...record, description: 'Leads a team of supervisors.', is_global_profit_eligible: 1 } });
    expect(edited).toMatchObject({ status: 200, body: { id: 3, description: 'Leads a team of supervisors.', is_global_profit_eligible: 1 } });
    expect(await h.call('PUT', '/api/admin/ranks/3', { token: admin, body: { ...record, package_id: null } })).toMatchObject({ status: 422, body: { message: 'Package required' } });
    expect(await h.call('PUT', '/api/admin/ranks/3', { token: admin, body: { ...record, package_id: 99 } })).toMatchObject({ status: 422, body: { message: 'The selected package is invalid.' } });

    const created = await h.call('POST', '/api/admin/ranks', { token: admin, body: { name: 'Crown Director', points: 900_000, is_global_profit_eligible: true, package_id: 3 } });
    expect(created).toMatchObject({ status: 200, body: { id: 8, name: 'Crown Director', points: 900_000, is_global_profit_eligible: 1, description: '' } });
    expect((await list('ranks')).headers['content-range']).toBe('ranks 0-7/8');

    const incentive = await h.call('POST', '/api/admin/incentives', { token: admin, body: { rank_id: 8, incentive: 'Duplex fund', worth: 50_000_000, image: dataUrl(tinyPng()) } });
    expect(incentive).toMatchObject({ status: 200, body: { id: 8, rank_id: 8, name: 'Crown Director', points: 900_000, incentive: 'Duplex fund', worth: 50_000_000, file_path: expect.stringMatching(/^storage\/incentives\//) } });
    expect(await h.call('POST', '/api/admin/incentives', { token: admin, body: { rank_id: 8, incentive: 'Another', worth: 1 } })).toMatchObject({ status: 422, body: { message: 'This rank already has an incentive; edit that one instead.' } });
    expect(await h.call('POST', '/api/admin/incentives', { token: admin, body: { rank_id: 8, worth: 1 } })).toMatchObject({ status: 422, body: { message: 'The incentive field is required.' } });
  });
});
