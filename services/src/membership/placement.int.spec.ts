import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
});
afterAll(async () => t.close());

const placementOf = (id: string) =>
  t.runtime.db.selectFrom('members as m').innerJoin('members as p', 'p.id', 'm.placement_parent_id').select(['p.username as parent', 'm.placement_leg as leg']).where('m.id', '=', id).executeTakeFirstOrThrow();

/** A member whose referral link (ref and placer both them) has been used twice: both legs taken. */
async function fullSponsor() {
  const sponsor = await h.registeredMember({}, { asParent: true });
  const left = await h.registeredMember({ referrer: sponsor.username, placer: sponsor.username }, { asParent: true });
  const right = await h.registeredMember({ referrer: sponsor.username, placer: sponsor.username }, { asParent: true });
  return { sponsor, left, right };
}
const viaLink = (sponsor: { username: string }) => h.newMember({ referrer: sponsor.username, placer: sponsor.username });

describe('spillover: a referral link never turns a recruit away (docs/placement.md)', () => {
  it('previews the placement before submitting: directly under a placement with a free leg, then below it once full', async () => {
    const sponsor = await h.registeredMember({}, { asParent: true });
    const first = await h.call('GET', `/api/auth/placement-preview?referrer=${sponsor.username}&placer=${sponsor.username}`);
    expect(first).toMatchObject({ status: 200, body: { data: { placement: sponsor.username, leg: 'left', spillover: false, explanation: `You will be placed under ${sponsor.username}, left leg.` } } });
    const left = await h.registeredMember({ referrer: sponsor.username, placer: sponsor.username }, { asParent: true });
    await h.registeredMember({ referrer: sponsor.username, placer: sponsor.username }, { asParent: true });
    const full = await h.call('GET', `/api/auth/placement-preview?referrer=${sponsor.username}&placer=${sponsor.username}`);
    expect(full.body.data).toMatchObject({ placement: left.username, leg: 'left', spillover: true, requested_placement: sponsor.username, preference: 'balanced' });
    expect(full.body.data.explanation).toBe(
      `${sponsor.username} already has two direct placements, so you will be placed under ${left.username}, left leg: the first free place, level by level of ${sponsor.username}'s team (the company default).`,
    );
    // The registration goes exactly where the preview said.
    const registered = await h.call('POST', '/api/auth/register', { body: viaLink(sponsor) });
    expect(registered.status, registered.body.message).toBe(200);
    expect(await placementOf(registered.body.data.uuid)).toEqual({ parent: left.username, leg: 'left' });
  });

  it('answers unknown names and a placement outside the sponsor team with 422 and the field', async () => {
    const ghost = await h.call('GET', '/api/auth/placement-preview?referrer=nobody-at-all');
    expect(ghost).toMatchObject({ status: 422, body: { message: 'The placement (referrer) does not exist.', errors: { referrer: ['The placement (referrer) does not exist.'] } } });
    const { sponsor } = await fullSponsor();
    const outsider = await h.registeredMember({}, { asParent: true });
    const outside = await h.call('GET', `/api/auth/placement-preview?referrer=${outsider.username}&placer=${sponsor.username}`);
    expect(outside).toMatchObject({ status: 422, body: { errors: { referrer: [`The placement must be ${sponsor.username} or a member of ${sponsor.username}'s downline.`] } } });
    const tooLong = await h.call('GET', `/api/auth/placement-preview?referrer=${'x'.repeat(200)}`);
    expect(tooLong.status).toBe(422);
  });

  it("follows the sponsor's preference: extreme right walks down the right side", async () => {
    const { sponsor, right } = await fullSponsor();
    const rightOfRight = await h.registeredMember({ referrer: right.username, placer: sponsor.username }, { asParent: true });
    // The right child's right leg is taken only after its left: put one on its left first, then the right.
    expect(await placementOf(rightOfRight.id)).toEqual({ parent: right.username, leg: 'left' });
    const rr = await h.registeredMember({ referrer: right.username, placer: sponsor.username }, { asParent: true });
    expect(await placementOf(rr.id)).toEqual({ parent: right.username, leg: 'right' });

    const saved = await h.call('PUT', `/api/users/${sponsor.id}/placement-preference`, { token: sponsor.token, body: { preference: 'extreme_right' } });
    expect(saved).toMatchObject({ status: 200, body: { message: 'Placement preference saved.' } });
    expect((await h.call('GET', `/api/users/${sponsor.id}/placement-preference`, { token: sponsor.token })).body.data).toEqual({ preference: 'extreme_right', company_default: 'balanced', effective: 'extreme_right' });

    const recruit = await h.call('POST', '/api/auth/register', { body: viaLink(sponsor) });
    expect(recruit.status, recruit.body.message).toBe(200);
    expect(await placementOf(recruit.body.data.uuid)).toEqual({ parent: rr.username, leg: 'right' });
    const row = await t.runtime.db.selectFrom('members').select('sponsor_id').where('id', '=', recruit.body.data.uuid).executeTakeFirstOrThrow();
    expect(row.sponsor_id).toBe(sponsor.id);
  });

  it('extreme left goes to the outermost left member', async () => {
    const { sponsor, left } = await fullSponsor();
    expect((await h.call('PUT', `/api/users/${sponsor.id}/placement-preference`, { token: sponsor.token, body: { preference: 'extreme_left' } })).status).toBe(200);
    const first = await h.call('POST', '/api/auth/register', { body: viaLink(sponsor) });
    const second = await h.call('POST', '/api/auth/register', { body: viaLink(sponsor) });
    expect(await placementOf(first.body.data.uuid)).toEqual({ parent: left.username, leg: 'left' });
    const firstName = (await t.runtime.db.selectFrom('members').select('username').where('id', '=', first.body.data.uuid).executeTakeFirstOrThrow()).username;
    expect(await placementOf(second.body.data.uuid)).toEqual({ parent: firstName, leg: 'left' });
  });

  it('weaker leg spills into the leg with the lower volume', async () => {
    const { sponsor, right } = await fullSponsor();
    expect((await h.call('PUT', `/api/users/${sponsor.id}/placement-preference`, { token: sponsor.token, body: { preference: 'weaker_leg' } })).status).toBe(200);
    // Leg volumes as the points consumer keeps them (docs/points.md): the left leg is the stronger.
    await t.runtime.db.insertInto('member_points').values({ member_id: sponsor.id, personal_pv: 0, cpv: 0, left_pv: 900, right_pv: 100, rank_id: null, rank_achieved_at: null, updated_at: new Date() }).execute();
    const preview = await h.call('GET', `/api/auth/placement-preview?referrer=${sponsor.username}&placer=${sponsor.username}`);
    expect(preview.body.data).toMatchObject({ placement: right.username, leg: 'left', preference: 'weaker_leg', spillover: true });
    const recruit = await h.call('POST', '/api/auth/register', { body: viaLink(sponsor) });
    expect(await placementOf(recruit.body.data.uuid)).toEqual({ parent: right.username, leg: 'left' });
  });

  it('places recruits racing through one full link in distinct slots, none refused', async () => {
    const { sponsor, left, right } = await fullSponsor();
    const results = await Promise.all(Array.from({ length: 4 }, () => h.call('POST', '/api/auth/register', { body: viaLink(sponsor) })));
    for (const result of results) expect(result.status, result.body.message).toBe(200);
    const placed = await Promise.all(results.map((r) => placementOf(r.body.data.uuid)));
    expect(placed.map((p) => `${p.parent}:${p.leg}`).sort()).toEqual([`${left.username}:left`, `${left.username}:right`, `${right.username}:left`, `${right.username}:right`].sort());
  });

  it('lets only the member (or an admin) change the preference, with a readable 422 for nonsense', async () => {
    const owner = await h.registeredMember();
    const other = await h.registeredMember();
    expect((await h.call('PUT', `/api/users/${owner.id}/placement-preference`, { token: other.token, body: { preference: 'extreme_left' } })).status).toBe(403);
    const bad = await h.call('PUT', `/api/users/${owner.id}/placement-preference`, { token: owner.token, body: { preference: 'sideways' } });
    expect(bad).toMatchObject({ status: 422, body: { message: 'Choose how new members are placed.' } });
    const finance = await h.adminToken('finance');
    expect((await h.call('PUT', `/api/users/${owner.id}/placement-preference`, { token: finance, body: { preference: 'extreme_left' } })).status).toBe(403);
    const reset = await h.call('PUT', `/api/users/${owner.id}/placement-preference`, { token: owner.token, body: { preference: null } });
    expect(reset.status).toBe(200);
  });
});
