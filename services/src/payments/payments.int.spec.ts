import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { pngOfSize, tinyPng } from '../../test/multipart';
import { creditWallet } from '../../test/wallet';
import { expireOverdueRegistrations } from '../membership/expiry';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
});
afterAll(async () => t.close());

const png = tinyPng();
const receipt = { payment_receipt: { bytes: png, filename: 'receipt.png', type: 'image/png' } };
const bronzeRegistration = { amount: 35_000, description: 'Bronze registration', txn_source: 'package_payment', is_upgrade: 0, meta_data: 2 };

async function eventsOf(types: string[], streamId?: string) {
  let query = t.runtime.db.selectFrom('events').select(['type', 'stream_id', 'data', 'metadata', 'event_id']).where('type', 'in', types).orderBy('global_position');
  if (streamId) query = query.where('stream_id', '=', streamId);
  return query.execute() as Promise<Array<{ type: string; stream_id: string; data: any; metadata: any; event_id: string }>>;
}

/** Webhooks from the stand-in go to the app, as in production. */
async function deliverToApp(rawBody: string, signature: string) {
  await t.app.inject({ method: 'POST', url: '/api/payments/webhook', payload: rawBody, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature } });
}

async function currentUser(token: string) {
  return (await h.call('GET', '/api/auth/user', { token })).body.data;
}

async function payByCard(member: { token: string }) {
  const started = await h.call('POST', '/api/payments/initiate', { token: member.token, body: { ...bronzeRegistration, payment_type: 'payment_gateway' } });
  expect(started.status, started.body.message).toBe(200);
  return started.body.data as { authorization_url: string; reference: string; payment_id: string; access_code: string; amount: number };
}

describe('card payment through the gateway (BUSINESS-RULES.md §2)', () => {
  it('opens the provider page for the amount due, and activates the member once the provider confirms it', async () => {
    const member = await h.registeredMember();
    const started = await payByCard(member);
    expect(started.amount).toBe(35_000);
    expect(started.authorization_url).toBe(`${t.paystack.url}/checkout/${started.access_code}`);
    expect(t.paystack.transactions().find((tx) => tx.reference === started.reference)?.amountKobo).toBe(3_500_000);

    const early = await h.call('POST', '/api/payments/verify', { token: member.token, body: { reference: started.reference } });
    expect(early.body).toMatchObject({ success: false, message: 'Unable to verify payment', data: { status: 'initiated' } });

    // The member presses Pay on the provider's page (a real form post to the stand-in).
    const page = await fetch(started.authorization_url);
    expect(page.status).toBe(200);
    await t.paystack.completeCheckout(started.access_code, 'success');

    const verified = await h.call('POST', '/api/payments/verify', { token: member.token, body: { reference: started.reference } });
    expect(verified.body).toMatchObject({ success: true, message: 'Payment Verified successfully', data: { success: true, status: 'approved' } });
    expect(await currentUser(member.token)).toMatchObject({ payment: 'approved', is_deactivated: false, package_id: 2 });

    const [activation] = await eventsOf(['MemberActivated'], `member-${member.id}`);
    const [succeeded] = await eventsOf(['PackagePaymentSucceeded'], `package-payment-${started.payment_id}`);
    expect(activation?.data).toEqual({ member_id: member.id, package_id: 2, payment_id: started.payment_id, registration_value_kobo: 3_500_000, point_value: 25, pickup_allowance_kobo: 3_000_000 });
    expect(activation?.metadata.causation_id).toBe(succeeded?.event_id);
    const row = await t.runtime.db.selectFrom('members').select(['personal_pv', 'activated_at']).where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row.personal_pv).toBe(25);
  });

  it('applies a payment exactly once when client verifications and webhook deliveries race', async () => {
    const member = await h.registeredMember();
    const started = await payByCard(member);
    const held: Array<{ rawBody: string; signature: string }> = [];
    t.paystack.setWebhookTarget(async (rawBody, signature) => {
      held.push({ rawBody, signature });
    });
    await t.paystack.completeCheckout(started.access_code, 'success');
    expect(held).toHaveLength(1);
    const deliver = () =>
      t.app.inject({ method: 'POST', url: '/api/payments/webhook', payload: held[0]!.rawBody, headers: { 'content-type': 'application/json', 'x-paystack-signature': held[0]!.signature } });
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => deliver()),
      ...Array.from({ length: 5 }, () => h.call('POST', '/api/payments/verify', { token: member.token, body: { reference: started.reference } })),
    ]);
    for (const result of results) expect('status' in result ? result.status : (result as { statusCode: number }).statusCode).toBe(200);
    t.paystack.setWebhookTarget(deliverToApp);
    expect(await eventsOf(['PackagePaymentSucceeded'], `package-payment-${started.payment_id}`)).toHaveLength(1);
    expect(await eventsOf(['MemberActivated'], `member-${member.id}`)).toHaveLength(1);
    const row = await t.runtime.db.selectFrom('members').select('personal_pv').where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row.personal_pv).toBe(25);
  });

  it('refuses a webhook whose signature does not match its body', async () => {
    const body = JSON.stringify({ event: 'charge.success', data: { reference: 'hlp-forged' } });
    const forged = await t.app.inject({ method: 'POST', url: '/api/payments/webhook', payload: body, headers: { 'content-type': 'application/json', 'x-paystack-signature': 'f'.repeat(128) } });
    expect(forged.statusCode).toBe(401);
  });

  it('answers an unknown reference with the seeds warning, not an error', async () => {
    const member = await h.registeredMember();
    const unknown = await h.call('POST', '/api/payments/verify', { token: member.token, body: { reference: 'hlp-never-issued' } });
    expect(unknown).toMatchObject({ status: 200, body: { success: false, message: 'Unable to verify payment' } });
  });

  it('serves the same initiation at /payments/initiate-payment (the seeds name both)', async () => {
    const member = await h.registeredMember();
    const started = await h.call('POST', '/api/payments/initiate-payment', { token: member.token, body: { ...bronzeRegistration, payment_type: 'payment_gateway' } });
    expect(started).toMatchObject({ status: 200, body: { data: { amount: 35_000, authorization_url: expect.stringContaining('/checkout/') } } });
  });

  it('refuses an amount that is not the amount due, naming the amount due', async () => {
    const member = await h.registeredMember();
    const wrong = await h.call('POST', '/api/payments/initiate', { token: member.token, body: { ...bronzeRegistration, amount: 15_000, payment_type: 'payment_gateway' } });
    expect(wrong).toMatchObject({ status: 422, body: { message: 'The amount does not match the amount due (₦35,000).' } });
  });

  it('does not apply a payment of another amount: ₦34,000 charged for ₦35,000 due waits for an admin, who can approve it', async () => {
    const member = await h.registeredMember();
    const started = await payByCard(member);
    await t.paystack.completeCheckout(started.access_code, 'success', { chargedAmountKobo: 3_400_000 });
    const verified = await h.call('POST', '/api/payments/verify', { token: member.token, body: { reference: started.reference } });
    expect(verified.body).toMatchObject({ success: false, data: { status: 'amount_mismatch' } });
    expect(await currentUser(member.token)).toMatchObject({ payment: null });
    const admin = await h.adminToken();
    const pending = await h.call('GET', '/api/payments/pending-package-payment-approvals', { token: admin });
    expect(pending.body.data.data.find((p: { id: string }) => p.id === started.payment_id)).toMatchObject({ status: 'amount_mismatch', amount: 35_000, amount_paid: 34_000 });
    expect((await h.call('PATCH', `/api/payments/package-payments/${started.payment_id}/approve`, { token: admin })).status).toBe(200);
    expect(await currentUser(member.token)).toMatchObject({ payment: 'approved' });
  });

  it('does not apply a second registration payment of an active member: it waits for an admin as not applied', async () => {
    const member = await h.registeredMember();
    const first = await payByCard(member);
    const second = await payByCard(member);
    await t.paystack.completeCheckout(first.access_code, 'success');
    await t.paystack.completeCheckout(second.access_code, 'success');
    const settled = await t.runtime.db.selectFrom('package_payments').select(['id', 'status', 'status_reason']).where('member_id', '=', member.id).orderBy('created_at').execute();
    expect(settled.map((p) => p.status).sort()).toEqual(['approved', 'not_applied']);
    expect(settled.find((p) => p.status === 'not_applied')?.status_reason).toMatch(/already active/);
    const admin = await h.adminToken();
    const pending = await h.call('GET', '/api/payments/pending-package-payment-approvals', { token: admin });
    expect(pending.body.data.data.map((p: { id: string }) => p.id)).toContain(settled.find((p) => p.status === 'not_applied')?.id);
    expect(await eventsOf(['MemberActivated'], `member-${member.id}`)).toHaveLength(1);
  });
});

describe('proof of payment (receipt upload) and admin approval', () => {
  it('uploads a receipt, lists it for admins, and activates the member when an admin approves it', async () => {
    const member = await h.registeredMember();
    const admin = await h.adminToken();
    const countBefore = (await h.call('GET', '/api/payments/pending-package-payment-approvals?count=1', { token: admin })).body.data as number;
    const uploaded = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: receipt });
    expect(uploaded).toMatchObject({ status: 200, body: { message: 'Payment reciept uploaded successfuly', data: { amount: 35_000 } } });
    const paymentId = uploaded.body.data.payment_id as string;

    expect((await h.call('GET', '/api/payments/pending-package-payment-approvals?count=1', { token: admin })).body.data).toBe(countBefore + 1);
    const view = await h.call('GET', `/api/payments/package-payments/${paymentId}`, { token: admin });
    expect(view.body.data).toMatchObject({ username: member.username, name: 'Bronze', amount: 35_000, status: 'pending', narration: 'Bronze registration', payment_type: 'pop' });
    const image = await t.app.inject({ method: 'GET', url: `/${view.body.data.payment_receipt}` });
    expect(image.statusCode).toBe(200);
    // Re-encoded on upload (core/uploads.ts): the same picture, not the same bytes.
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(0, 8).equals(png.subarray(0, 8))).toBe(true);

    const again = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: receipt });
    expect(again).toMatchObject({ status: 422, body: { message: 'You already have a payment receipt awaiting approval.' } });

    const financeToken = await h.adminToken('finance');
    expect((await h.call('PATCH', `/api/payments/package-payments/${paymentId}/approve`, { token: financeToken })).status).toBe(403);
    expect((await h.call('PATCH', `/api/payments/package-payments/${paymentId}/approve`, { token: member.token })).status).toBe(403);

    const approved = await h.call('PATCH', `/api/payments/package-payments/${paymentId}/approve`, { token: admin });
    expect(approved).toMatchObject({ status: 200, body: { message: 'Payment approved successfully', data: { status: 'approved' } } });
    expect(await currentUser(member.token)).toMatchObject({ payment: 'approved', is_deactivated: false });
    // A second click changes nothing; a decline after approval is refused.
    expect((await h.call('PATCH', `/api/payments/package-payments/${paymentId}/approve`, { token: admin })).status).toBe(200);
    expect(await eventsOf(['MemberActivated'], `member-${member.id}`)).toHaveLength(1);
    expect(await h.call('PATCH', `/api/payments/package-payments/${paymentId}/disapprove`, { token: admin })).toMatchObject({ status: 422, body: { message: 'This payment has already been approved.' } });

    const [approval] = await eventsOf(['PackagePaymentApproved'], `package-payment-${paymentId}`);
    expect(approval?.metadata.actor.type).toBe('admin');
    const history = await h.call('GET', '/api/payments/package-payment-history', { token: admin });
    expect(history.body.data.data.map((p: { id: string }) => p.id)).toContain(paymentId);
  });

  it('keeps the member inactive when an admin declines, and lets them upload again', async () => {
    const member = await h.registeredMember();
    const admin = await h.adminToken();
    const uploaded = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: receipt });
    const declined = await h.call('PATCH', `/api/payments/package-payments/${uploaded.body.data.payment_id}/disapprove`, { token: admin, body: { reason: 'The receipt is for another account' } });
    expect(declined).toMatchObject({ status: 200, body: { message: 'Payment declined successfully', data: { status: 'declined', status_reason: 'The receipt is for another account' } } });
    expect(await currentUser(member.token)).toMatchObject({ payment: null, is_deactivated: true });
    const retry = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: receipt });
    expect(retry.status).toBe(200);
  });

  it('refuses a receipt over 500,000 bytes or one that is not an image, keeping nothing', async () => {
    const member = await h.registeredMember();
    const tooBig = pngOfSize(500_001);
    const big = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: { payment_receipt: { bytes: tooBig, filename: 'big.png', type: 'image/png' } } });
    expect(big).toMatchObject({ status: 422, body: { message: 'Image size should not exceed 500kB' } });
    const text = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: { payment_receipt: { bytes: Buffer.from('not an image at all'), filename: 'receipt.png', type: 'image/png' } } });
    expect(text).toMatchObject({ status: 422, body: { message: 'The file must be a JPEG, PNG or WebP image.' } });
    const none = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { ...bronzeRegistration, payment_type: 'pop' } });
    expect(none.status).toBe(422);
    expect(await t.runtime.db.selectFrom('package_payments').select('id').where('member_id', '=', member.id).execute()).toHaveLength(0);
  });

  it('shows a member only their own payments', async () => {
    const owner = await h.registeredMember();
    const other = await h.registeredMember();
    const uploaded = await h.upload('POST', '/api/payments/initiate', { token: owner.token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: receipt });
    expect((await h.call('GET', `/api/payments/package-payments/${uploaded.body.data.payment_id}`, { token: other.token })).status).toBe(403);
    expect((await h.call('GET', `/api/payments/package-payments/${uploaded.body.data.payment_id}`, { token: owner.token })).status).toBe(200);
    expect((await h.call('GET', '/api/payments/pending-package-payment-approvals', { token: owner.token })).status).toBe(403);
  });
});

describe('provider balance', () => {
  it('shows admins the provider balance in naira', async () => {
    t.paystack.setBalanceKobo(123_456_789);
    const admin = await h.adminToken('finance');
    expect((await h.call('GET', '/api/payments/provider-wallet-balance', { token: admin })).body.data).toEqual({ available_balance: 1_234_567.89, currency: 'NGN' });
    const member = await h.registeredMember();
    expect((await h.call('GET', '/api/payments/provider-wallet-balance', { token: member.token })).status).toBe(403);
  });
});

describe('package upgrade (BUSINESS-RULES.md §2)', () => {
  it('prices Bronze → Gold at ₦105,000, and on approval gives Gold, +75 PV and the pick-up difference', async () => {
    const member = await h.activeMember();
    const difference = await h.call('GET', `/api/users/${member.id}/package-difference?package_id=4`, { token: member.token });
    expect(difference.body.data).toMatchObject({ package_name: 'Gold', package_difference: 105_000, current_package: { name: 'Bronze', pickup_amount: 30_000 }, new_package: { name: 'Gold', pickup_amount: 120_000 } });
    expect(await h.call('GET', `/api/users/${member.id}/package-difference?package_id=1`, { token: member.token })).toMatchObject({ status: 422 });

    const lower = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { amount: 0, is_upgrade: 1, meta_data: 1, txn_source: 'package_payment', payment_type: 'pop' }, files: receipt });
    expect(lower).toMatchObject({ status: 422, body: { message: 'You can only upgrade to a package higher than your current one.' } });
    const noPackage = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { is_upgrade: 1, txn_source: 'package_payment', payment_type: 'pop' }, files: receipt });
    expect(noPackage).toMatchObject({ status: 422, body: { message: 'Select a package for upgrade' } });

    const upgrade = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { amount: 105_000, is_upgrade: 1, meta_data: 4, txn_source: 'package_payment', payment_type: 'pop', description: 'Upgrade to Gold' }, files: receipt });
    expect(upgrade.status, upgrade.body.message).toBe(200);
    const admin = await h.adminToken();
    expect((await h.call('PATCH', `/api/payments/package-payments/${upgrade.body.data.payment_id}/approve`, { token: admin })).status).toBe(200);

    expect(await currentUser(member.token)).toMatchObject({ package_id: 4, reg_package_id: 2 });
    const row = await t.runtime.db.selectFrom('members').select('personal_pv').where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row.personal_pv).toBe(100);
    const [upgraded] = await eventsOf(['MemberPackageUpgraded'], `member-${member.id}`);
    expect(upgraded?.data).toMatchObject({ from_package_id: 2, to_package_id: 4, difference_kobo: 10_500_000, point_value_added: 75, pickup_allowance_kobo: 9_000_000 });
    const history = await h.call('GET', `/api/payments/${member.id}/user-upgrade-history`, { token: admin });
    expect(history.body.data.data).toHaveLength(1);
    expect(history.body.data.data[0]).toMatchObject({ name: 'Gold', previous_package_name: 'Bronze', amount: 105_000, status: 'approved' });
    const pickup = await h.call('GET', `/api/users/${member.id}/package-difference?is_upgrade_pickup=1`, { token: member.token });
    expect(pickup.body.data).toMatchObject({ package_difference: 90_000, pickup_used: false });
    // Once the upgrade's pick-up is placed the member app stops offering it.
    const soursop = await t.runtime.db.selectFrom('products').select('id').where('name', '=', 'Soursop Leaf Tea').executeTakeFirstOrThrow();
    for (const pickupType of ['registration_pickup', 'upgrade_pickup']) {
      const placed = await h.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: pickupType, products: [{ id: soursop.id, qty: 1 }] } });
      expect(placed.status, placed.body.message).toBe(200);
    }
    const used = await h.call('GET', `/api/users/${member.id}/package-difference?is_upgrade_pickup=1`, { token: member.token });
    expect(used.body.data).toMatchObject({ package_difference: 90_000, pickup_used: true });
  });

  it('refuses to apply an upgrade priced on a package the member no longer holds', async () => {
    const member = await h.activeMember();
    const admin = await h.adminToken();
    const toGold = await h.call('POST', '/api/payments/initiate', { token: member.token, body: { amount: 105_000, is_upgrade: 1, meta_data: 4, payment_type: 'payment_gateway' } });
    const toSilver = await h.call('POST', '/api/payments/initiate', { token: member.token, body: { amount: 35_000, is_upgrade: 1, meta_data: 3, payment_type: 'payment_gateway' } });
    await t.paystack.completeCheckout(toSilver.body.data.access_code, 'success');
    await t.paystack.completeCheckout(toGold.body.data.access_code, 'success');
    const gold = await t.runtime.db.selectFrom('package_payments').select(['status', 'status_reason']).where('id', '=', toGold.body.data.payment_id).executeTakeFirstOrThrow();
    expect(gold).toMatchObject({ status: 'not_applied', status_reason: expect.stringMatching(/package changed/) });
    const approve = await h.call('PATCH', `/api/payments/package-payments/${toGold.body.data.payment_id}/approve`, { token: admin });
    expect(approve.status).toBe(422);
    expect(await currentUser(member.token)).toMatchObject({ package_id: 3 });
  });
});

describe('paying a package from the wallet (PATCH /withdrawals/pay-with-wallet)', () => {
  it('upgrades Bronze → Silver (₦35,000) at once from a ₦40,000 balance, and refuses when the balance is short, changing nothing', async () => {
    const member = await h.activeMember();
    await creditWallet(t.runtime.db, member.id, 4_000_000, t.clock.now);
    const upgrade = { amount: 35_000, is_upgrade: 1, meta_data: 3, txn_source: 'package_payment', description: 'Upgrade to Silver' };
    const paid = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: member.token, body: upgrade });
    expect(paid).toMatchObject({ status: 200, body: { message: 'Payment successful', data: { amount: 35_000 } } });
    expect(await currentUser(member.token)).toMatchObject({ package_id: 3 });
    const payment = await t.runtime.db.selectFrom('package_payments').select(['method', 'status', 'amount_paid']).where('id', '=', paid.body.data.payment_id).executeTakeFirstOrThrow();
    expect(payment).toEqual({ method: 'wallet', status: 'approved', amount_paid: 3_500_000 });
    expect(await eventsOf(['WalletPaymentMade'], `wallet-${member.id}`)).toHaveLength(1);

    // ₦5,000 left; Silver → Gold costs ₦70,000.
    const short = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: member.token, body: { ...upgrade, amount: 70_000, meta_data: 4 } });
    expect(short).toMatchObject({ status: 422, body: { message: 'Insufficient wallet balance.' } });
    expect(await currentUser(member.token)).toMatchObject({ package_id: 3 });
    expect(await t.runtime.db.selectFrom('package_payments').select('id').where('member_id', '=', member.id).where('method', '=', 'wallet').execute()).toHaveLength(1);
  });
});

describe('expiry of unpaid registrations and reinstatement (BUSINESS-RULES.md §1, §2)', () => {
  it('expires a registration unpaid after 7 days, frees its placement slot, and lets an admin reinstate it', async () => {
    const parent = await h.registeredMember({}, { asParent: true });
    const late = await h.registeredMember({ referrer: parent.username });
    const onTime = await h.registeredMember({ referrer: parent.username });
    await h.upload('POST', '/api/payments/initiate', { token: onTime.token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: receipt });

    t.clock.advanceMinutes(6 * 24 * 60);
    expect(await expireOverdueRegistrations(t.runtime.commands, t.clock.now)).toBe(0);
    t.clock.advanceMinutes(24 * 60 + 1);
    const expiredCount = await expireOverdueRegistrations(t.runtime.commands, t.clock.now);
    expect(expiredCount).toBeGreaterThanOrEqual(2); // parent and late; onTime waits for its receipt
    expect(await expireOverdueRegistrations(t.runtime.commands, t.clock.now)).toBe(0);

    const relogin = await h.call('POST', '/api/auth/login', { body: { username: late.username, password: late.password } });
    expect(relogin.body.data).toMatchObject({ registration_expired: true, payment: null });
    const refused = await h.upload('POST', '/api/payments/initiate', { token: relogin.body.data.access_token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: receipt });
    expect(refused).toMatchObject({ status: 422, body: { message: 'This registration has expired. An administrator must reinstate it before it can be paid.' } });
    const onTimeRow = await t.runtime.db.selectFrom('members').select('registration_expired_at').where('id', '=', onTime.id).executeTakeFirstOrThrow();
    expect(onTimeRow.registration_expired_at).toBeNull();

    // The freed slot under the parent is open to a new registration.
    const newcomer = await h.call('POST', '/api/auth/register', { body: h.newMember({ referrer: parent.username }) });
    expect(newcomer.status, newcomer.body.message).toBe(200);

    const admin = await h.adminToken();
    const reinstated = await h.call('POST', `/api/users/${late.id}/reinstate`, { token: admin });
    expect(reinstated).toMatchObject({ status: 200, body: { message: 'Registration reinstated successfully' } });
    const row = await t.runtime.db.selectFrom('members').select(['placement_parent_id', 'placement_leg', 'registration_expired_at', 'registration_expires_at']).where('id', '=', late.id).executeTakeFirstOrThrow();
    expect(row.registration_expired_at).toBeNull();
    expect(row.placement_parent_id).not.toBeNull();
    expect(row.registration_expires_at!.getTime()).toBe(t.clock.now.getTime() + 7 * 86_400_000);
    const legs = await t.runtime.db.selectFrom('members').select('placement_leg').where('placement_parent_id', '=', row.placement_parent_id).execute();
    expect(legs.length).toBeLessThanOrEqual(2);
    const paid = await h.upload('POST', '/api/payments/initiate', { token: relogin.body.data.access_token, fields: { ...bronzeRegistration, payment_type: 'pop' }, files: receipt });
    expect(paid.status, paid.body.message).toBe(200);
    expect((await h.call('POST', `/api/users/${onTime.id}/reinstate`, { token: admin })).body.message).toBe('Only an expired registration can be reinstated.');
  });
});
