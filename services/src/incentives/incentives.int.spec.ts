import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { compensationPolicy, walletLedgerProjection } from '../compensation/projections';
import { drainAll } from '../../test/consumers';
import { LOG_START, readLogBatch } from '../core/event-store';
import { pointsPolicy } from '../points/projections';
import { awardBonusesPolicy } from './projections';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;

/** The worker's part, run to the end: points and ranks, the bonus policies, the wallet ledger. */
async function settle() {
  for (const consumer of [pointsPolicy, compensationPolicy, awardBonusesPolicy, walletLedgerProjection]) {
    expect((await drainAll(t.runtime.db, consumer)).status, consumer.name).toBe('caught_up');
  }
}

type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;
const current = async (member: Member) => {
  const response = await h.call('GET', `/api/incentive-claims/${member.id}/current-incentive`, { token: member.token });
  expect(response.status, response.body.message).toBe(200);
  return response.body.data;
};
const claim = (member: Member, body: unknown, token = member.token) => h.call('POST', `/api/incentive-claims/${member.id}/create`, { token, body });
const decide = (claimId: string, action: 'approve' | 'decline', token = admin, body?: unknown) => h.call('PUT', `/api/incentive-claims/${claimId}/${action}`, { token, body });
/** The member's award bonus rows (credited and withheld), as the wallet's bonus table shows them. */
const awardRows = async (memberId: string) => {
  const response = await h.call('GET', `/api/wallet/${memberId}/bonuses`, { token: admin });
  expect(response.status).toBe(200);
  return (response.body.data.data as Array<{ kind: string }>).filter((row) => row.kind.startsWith('award_'));
};
const awardTotal = async (memberId: string) => (await h.call('GET', `/api/bonuses/${memberId}/bonus-stats`, { token: admin })).body.data.award_bonus as number;

// Seeded: rank 1 Associate (0 points) → "Branded polo shirt and herbal starter kit" ₦15,000;
// rank 2 Supervisor → "Android phone" ₦120,000; rank 3 Manager (2,000 points) → "Laptop" ₦450,000.
const POLO = 1;
const PHONE = 2;
const LAPTOP = 3;

let sponsor: Member;
let winner: Member;
let left: Member;
let right: Member;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  // The seeded Supervisor needs 500 CPV (20 Bronze activations); the test company makes it 50.
  const lowered = await h.call('PUT', '/api/ranks/2/update', { token: admin, body: { package_id: 1, points: 50 } });
  expect(lowered.status, lowered.body.message).toBe(200);

  // sponsor (Bronze) → winner (Bronze, 25 PV) → placement children: left active (25 PV), right registered but never paid.
  sponsor = await h.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
  winner = await h.registeredMember({ referrer: sponsor.username, package_id: 2 }, { asParent: true });
  await h.payByReceipt(winner);
  await settle();
});
afterAll(async () => t.close());

describe('incentive claims, through the real app', () => {
  it('a member reaches a rank, claims its incentive once, an admin approves, and the award bonuses are paid to the kobo', async () => {
    // Active on Bronze with 25 CPV: the winner holds the Associate rank (0 points) and sees its incentive.
    expect(await current(winner)).toMatchObject({ rank_id: 1, rank_name: 'Associate', incentive_id: POLO, worth: 15_000, claim: null });

    left = await h.activeMember({ referrer: winner.username, package_id: 2 });
    right = await h.registeredMember({ referrer: winner.username, package_id: 2 });
    await settle();
    const placed = await t.runtime.db.selectFrom('members').select(['id', 'placement_parent_id']).where('id', 'in', [left.id, right.id]).execute();
    expect(placed.map((m) => m.placement_parent_id)).toEqual([winner.id, winner.id]);

    // CPV 25 + 25 = 50 ≥ the Supervisor's 50 points: the current incentive is the Supervisor's phone.
    expect(await current(winner)).toEqual({
      id: PHONE, rank_id: 2, rank_name: 'Supervisor', points: 50, incentive_id: PHONE, incentive: 'Android phone', worth: 120_000, file_path: null, claim: null, claim_status: null,
    });

    // Not a rank held, not the rank's incentive, no such incentive: readable refusals, nothing recorded.
    expect(await claim(winner, { rank_id: 3, incentive_id: LAPTOP })).toMatchObject({ status: 422, body: { message: 'You have not reached the Manager rank yet: it needs 2,000 CPV.' } });
    expect(await claim(winner, { rank_id: 2, incentive_id: LAPTOP })).toMatchObject({ status: 422, body: { message: '"Laptop" is not the incentive of the Supervisor rank.' } });
    expect(await claim(winner, { rank_id: 2, incentive_id: 999 })).toMatchObject({ status: 422, body: { message: 'The selected incentive is invalid.' } });
    expect(await claim(winner, { rank_id: 'two', incentive_id: PHONE })).toMatchObject({ status: 422, body: { message: 'The selected rank is invalid.' } });
    expect(await claim(winner, { rank_id: 2 })).toMatchObject({ status: 422, body: { message: 'The incentive field is required.' } });
    // Someone else cannot claim in the winner's name.
    expect((await claim(winner, { rank_id: 2, incentive_id: PHONE }, left.token)).status).toBe(403);

    const claimed = await claim(winner, { rank_id: '2', incentive_id: PHONE });
    expect(claimed).toMatchObject({ status: 200, body: { message: 'incentive claimed successfully', data: { incentive: 'Android phone', rank_name: 'Supervisor', points: 50, worth: 120_000, status: 'processing' } } });
    const claimId = claimed.body.data.id as string;
    expect(await current(winner)).toMatchObject({ incentive_id: PHONE, claim: { id: claimId, status: 'processing' }, claim_status: 'processing' });

    // Once per incentive.
    expect(await claim(winner, { rank_id: 2, incentive_id: PHONE })).toMatchObject({ status: 422, body: { message: 'You have already claimed this incentive; your claim is being processed.' } });

    const mine = await h.call('GET', `/api/incentive-claims/${winner.id}/claims`, { token: winner.token });
    expect(mine.body.data).toEqual([expect.objectContaining({ id: claimId, incentive: 'Android phone', rank_name: 'Supervisor', points: 50, status: 'processing', created_at: expect.any(String) })]);
    expect((await h.call('GET', `/api/incentive-claims/${winner.id}/claims`, { token: left.token })).status).toBe(403);

    // The admins' Incentive Requests: who, on which package, with what CPV, for what.
    const requests = await h.call('GET', '/api/incentive-claims/all', { token: await h.adminToken('finance') });
    expect(requests.status).toBe(200);
    expect(requests.body.data).toMatchObject({ current_page: 1, per_page: 10, total: 1 });
    expect(requests.body.data.data[0]).toMatchObject({
      id: claimId, member_id: winner.id, username: winner.username, first_name: winner.first_name, last_name: winner.last_name, package_name: 'Bronze', cpv: 50, rank_name: 'Supervisor', incentive: 'Android phone', worth: 120_000, status: 'processing',
    });
    expect((await h.call('GET', '/api/incentive-claims/all', { token: winner.token })).status).toBe(403);

    // Only an administrator who may write decides.
    expect((await decide(claimId, 'approve', winner.token)).status).toBe(403);
    expect((await decide(claimId, 'approve', await h.adminToken('finance'))).status).toBe(403);

    const approved = await decide(claimId, 'approve');
    expect(approved).toMatchObject({ status: 200, body: { message: 'Incentive approved successfully', data: { id: claimId, status: 'approved', decided_at: expect.any(String) } } });
    expect(await decide(claimId, 'approve')).toMatchObject({ status: 422, body: { message: expect.stringContaining('This claim has already been approved') } });
    expect(await decide(claimId, 'decline')).toMatchObject({ status: 422, body: { message: expect.stringContaining('This claim has already been approved') } });
    await settle();

    // Award of ₦120,000: the sponsor 5% = ₦6,000; the active left child 2% = ₦2,400; the right child is not active, its ₦2,400 is withheld.
    expect(await awardTotal(sponsor.id)).toBe(6_000);
    expect(await awardTotal(left.id)).toBe(2_400);
    expect(await awardTotal(right.id)).toBe(0);
    expect(await awardTotal(winner.id)).toBe(0);
    const [sponsorRow] = await awardRows(sponsor.id);
    expect(sponsorRow).toMatchObject({ kind: 'award_sponsor', entry: 'credited', amount: 6_000, explanation: `Award bonus (sponsor) for ${winner.username}'s incentive award (Android phone): 5% of ₦120,000.` });
    expect(await awardRows(left.id)).toEqual([expect.objectContaining({ kind: 'award_direct_downline', entry: 'credited', amount: 2_400 })]);
    const [withheld] = await awardRows(right.id);
    expect(withheld).toMatchObject({ kind: 'award_direct_downline', entry: 'withheld', amount: 2_400, explanation: expect.stringContaining('Not paid') });

    // Nothing twice: the policy applied again to the same approval pays nothing more.
    const log = await readLogBatch(t.runtime.db, LOG_START, { limit: 100_000, types: ['IncentiveClaimApproved'] });
    const countAwards = async () => (await t.runtime.db.selectFrom('wallet_entries').select((eb) => eb.fn.countAll<string>().as('n')).where('kind', 'like', 'award_%').executeTakeFirstOrThrow()).n;
    const before = await countAwards();
    await t.runtime.db.transaction().execute((trx) => awardBonusesPolicy.apply(trx, log));
    await settle();
    expect(await countAwards()).toBe(before);

    // Received: the current incentive moves on to the one the member still holds and has not received.
    expect(await current(winner)).toMatchObject({ rank_id: 1, incentive_id: POLO, claim: null });
    expect(await claim(winner, { rank_id: 2, incentive_id: PHONE })).toMatchObject({ status: 422, body: { message: 'You have already received this incentive.' } });
  });

  it('a declined claim pays nothing and may be claimed again', async () => {
    const first = await claim(winner, { rank_id: 1, incentive_id: POLO });
    expect(first.status, first.body.message).toBe(200);
    const firstId = first.body.data.id as string;

    const declined = await decide(firstId, 'decline', admin, { reason: 'Please send a photo of your ID card first.' });
    expect(declined).toMatchObject({ status: 200, body: { message: 'Incentive declined successfully', data: { status: 'declined', decline_reason: 'Please send a photo of your ID card first.' } } });
    expect(await decide(firstId, 'approve')).toMatchObject({ status: 422, body: { message: expect.stringContaining('This claim has already been declined') } });
    await settle();
    expect(await awardTotal(sponsor.id)).toBe(6_000);
    expect(await current(winner)).toMatchObject({ incentive_id: POLO, claim: { id: firstId, status: 'declined' } });

    const declinedList = await h.call('GET', '/api/incentive-claims/all?status=declined', { token: admin });
    expect(declinedList.body.data.data.map((c: { id: string }) => c.id)).toEqual([firstId]);

    // Claimed again from two tabs at once: exactly one claim is recorded, the other is told why.
    const racing = await Promise.all([claim(winner, { rank_id: 1, incentive_id: POLO }), claim(winner, { rank_id: 1, incentive_id: POLO })]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(racing.find((r) => r.status === 422)?.body.message).toBe('You have already claimed this incentive; your claim is being processed.');
    const again = racing.find((r) => r.status === 200)!;
    expect(again).toMatchObject({ body: { message: 'incentive claimed successfully', data: { status: 'processing' } } });
    expect(again.body.data.id).not.toBe(firstId);
    expect(await current(winner)).toMatchObject({ incentive_id: POLO, claim: { id: again.body.data.id, status: 'processing' } });

    const mine = await h.call('GET', `/api/incentive-claims/${winner.id}/claims`, { token: winner.token });
    expect(mine.body.data.map((c: { incentive_id: number; status: string }) => [c.incentive_id, c.status])).toEqual([
      [POLO, 'processing'],
      [POLO, 'declined'],
      [PHONE, 'approved'],
    ]);
    // The admins' default list is the requests waiting for a decision.
    const waiting = await h.call('GET', '/api/incentive-claims/all', { token: admin });
    expect(waiting.body.data.data.map((c: { id: string }) => c.id)).toEqual([again.body.data.id]);
    expect((await h.call('GET', '/api/incentive-claims/all?status=all', { token: admin })).body.data.total).toBe(3);
    expect(await h.call('GET', '/api/incentive-claims/all?status=pending', { token: admin })).toMatchObject({ status: 422, body: { message: 'The status must be processing, approved, declined or all.' } });
  });

  it('answers bad ids and members without a rank with readable 4xx', async () => {
    expect(await decide('not-a-claim', 'approve')).toMatchObject({ status: 422, body: { message: 'Incentive claim not found.' } });
    expect(await decide(randomUUID(), 'approve')).toMatchObject({ status: 404, body: { message: 'Incentive claim not found.' } });
    expect(await decide(randomUUID(), 'decline')).toMatchObject({ status: 404, body: { message: 'Incentive claim not found.' } });
    expect(await h.call('GET', '/api/incentive-claims/not-a-member/current-incentive', { token: admin })).toMatchObject({ status: 422, body: { message: 'Member not found.' } });
    // An administrator reads a member's claims but does not claim for them.
    expect((await h.call('GET', `/api/incentive-claims/${winner.id}/claims`, { token: admin })).status).toBe(200);
    expect((await claim(winner, { rank_id: 1, incentive_id: POLO }, admin)).status).toBe(403);

    // Registered but not paid: no rank, no current incentive, no claim.
    expect(await current(right)).toBeNull();
    expect(await claim(right, { rank_id: 1, incentive_id: POLO })).toMatchObject({ status: 422, body: { message: 'Only an active member can claim an incentive.' } });
    expect(await h.call('GET', `/api/incentive-claims/${right.id}/claims`, { token: right.token })).toMatchObject({ status: 200, body: { data: [] } });
  });
});
