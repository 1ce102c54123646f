import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { creditWallet } from '../../test/wallet';
import { walletLedgerProjection } from '../compensation/projections';
import { foldEvents, runInTransaction } from '../core/command';
import { drainAll } from '../../test/consumers';
import { readStream } from '../core/event-store';
import { rebuildProjection } from '../core/rebuild';
import { debitWalletForPayment, runPayouts } from './commands';
import { balanceOf, walletDecider } from './decider';
import { transferReference, walletStream } from './events';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
});
afterAll(async () => t.close());

type Member = Awaited<ReturnType<typeof h.registeredMember>>;

async function saveBankDetails(member: Member) {
  const saved = await h.call('PUT', `/api/users/${member.id}/update-bank-details`, { token: member.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } });
  expect(saved.status, saved.body.message).toBe(200);
}

/** An active member with verified bank details and `naira` in the wallet. */
async function walletHolder(naira: number, options: { active?: boolean; bank?: boolean } = {}) {
  const member = await h.registeredMember();
  if (options.active !== false) await h.payByReceipt(member);
  if (options.bank !== false) await saveBankDetails(member);
  if (naira > 0) await creditWallet(t.runtime.db, member.id, naira * 100);
  return member;
}

async function settings(body: Record<string, unknown>) {
  const updated = await h.call('PUT', '/api/settings/update', { token: admin, body });
  expect(updated.status, updated.body.message).toBe(200);
}
const weeklyOnFriday = { withdrawal_type: 'weekly', withdrawal_period: 6 };
const noSchedule = { withdrawal_type: null };

const initiate = (member: { id: string; token: string }, amount: unknown, headers?: Record<string, string>) =>
  h.call('POST', `/api/withdrawals/${member.id}/initiate`, { token: member.token, body: { amount }, headers });

/** The balance folded from the wallet stream itself (what every debit is decided on). */
async function streamBalance(memberId: string) {
  return balanceOf(foldEvents(walletDecider(memberId), await readStream(t.runtime.db, walletStream(memberId)))) / 100;
}

async function walletEvents(memberId: string, type: string) {
  return (await readStream(t.runtime.db, walletStream(memberId))).filter((e) => e.type === type);
}

async function ledger(memberId: string) {
  expect((await drainAll(t.runtime.db, walletLedgerProjection)).status).toBe('caught_up');
  return (await h.call('GET', `/api/bonuses/${memberId}/wallet-balance`, { token: admin })).body.data as { balance: number; total_withdrawn: number; total_bonus: number; total_spent: number };
}

async function statusOf(withdrawalId: string) {
  return (await h.call('GET', `/api/withdrawals/${withdrawalId}/details`, { token: admin })).body.data.status as string;
}

/** Webhooks go out after the provider's answer: wait for them, then for the status they bring. */
async function eventuallyStatus(withdrawalId: string, expected: string) {
  await t.paystack.whenIdle();
  for (let i = 0; i < 50 && (await statusOf(withdrawalId)) !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.paystack.whenIdle();
  }
  expect(await statusOf(withdrawalId)).toBe(expected);
}

const payouts = (at: string) => runPayouts({ commands: t.runtime.commands, gateway: t.runtime.gateway }, new Date(at));
const FRIDAY = '2030-11-29T10:00:00Z';
const THURSDAY = '2030-11-28T10:00:00Z';

describe('requesting a withdrawal: limits, fee, balance', () => {
  it('debits ₦200,000 of ₦250,000 with a 1.5% fee capped at ₦2,000 (the bank gets ₦198,000), within ₦2,000–₦500,000, never beyond the balance', async () => {
    await settings({ ...weeklyOnFriday, withdrawal_charge_type: 'percentage', charge: 1.5, withdrawal_charge_cap: 2_000, minimum_withdrawal: 2_000, maximum_withdrawal: 500_000 });
    const member = await walletHolder(250_000);

    expect(await initiate(member, 1_999)).toMatchObject({ status: 422, body: { message: 'The minimum withdrawal is ₦2,000.', errors: { amount: ['The minimum withdrawal is ₦2,000.'] } } });
    expect(await initiate(member, 500_001)).toMatchObject({ status: 422, body: { message: 'The maximum withdrawal is ₦500,000.' } });
    expect(await initiate(member, 'a lot')).toMatchObject({ status: 422, body: { message: 'withdrawal amount is invalid' } });

    const made = await initiate(member, 200_000);
    expect(made).toMatchObject({
      status: 200,
      body: { message: 'Withdrawal Request successful', data: { amount: 200_000, fee: 2_000, charge: 2_000, net_amount: 198_000, status: 'pending', type: 'withdrawal', username: member.username, account_number: '0123456789' } },
    });
    expect(await initiate(member, 50_001)).toMatchObject({ status: 422, body: { message: 'Insufficient wallet balance.' } });
    expect(await streamBalance(member.id)).toBe(50_000);
    expect(await ledger(member.id)).toMatchObject({ total_bonus: 250_000, total_withdrawn: 200_000, balance: 50_000 });

    const history = await h.call('GET', `/api/withdrawals/${member.id}/user-history?page=1`, { token: member.token });
    expect(history.body.data).toMatchObject({ current_page: 1, per_page: 10, total: 1, data: [{ amount: 200_000, fee: 2_000, status: 'pending', type: 'withdrawal' }] });
    expect((await h.call('GET', `/api/withdrawals/${member.id}/user-total`, { token: member.token })).body.data).toMatchObject({ total: 200_000, pending: 200_000 });
    expect((await h.call('GET', `/api/withdrawals/${member.id}/pending`, { token: member.token })).body.data).toHaveLength(1);
    const details = await h.call('GET', `/api/withdrawals/${made.body.data.id}/details`, { token: member.token });
    expect(details.body.data).toMatchObject({ id: made.body.data.id, transfer_reference: transferReference(made.body.data.id) });
    const search = await h.call('GET', `/api/withdrawals/search?search=${member.username}&page=1`, { token: admin });
    expect(search.body.data.data.map((w: { id: string }) => w.id)).toEqual([made.body.data.id]);
  });

  it('charges a flat ₦100 whatever the amount: ₦5,000 sends ₦4,900', async () => {
    await settings({ ...weeklyOnFriday, withdrawal_charge_type: 'flat', charge: 100 });
    const member = await walletHolder(5_000);
    expect((await initiate(member, 5_000)).body.data).toMatchObject({ amount: 5_000, fee: 100, net_amount: 4_900 });
    expect(await streamBalance(member.id)).toBe(0);
    await settings({ withdrawal_charge_type: 'percentage', charge: 1.5 });
  });

  it('refuses a member without verified bank details, and an inactive member', async () => {
    const noBank = await walletHolder(10_000, { bank: false });
    expect(await initiate(noBank, 5_000)).toMatchObject({ status: 422, body: { message: 'Add and verify your bank details before you withdraw.' } });
    const inactive = await walletHolder(10_000, { active: false });
    expect(await initiate(inactive, 5_000)).toMatchObject({ status: 422, body: { message: 'Only an active member can withdraw from the wallet.' } });
    expect(await streamBalance(noBank.id)).toBe(10_000);
    expect(await streamBalance(inactive.id)).toBe(10_000);
  });

  it('records one withdrawal for a request retried under the same Idempotency-Key', async () => {
    await settings(weeklyOnFriday);
    const member = await walletHolder(10_000);
    const first = await initiate(member, 3_000, { 'idempotency-key': 'retry-me' });
    const again = await initiate(member, 3_000, { 'idempotency-key': 'retry-me' });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await walletEvents(member.id, 'WithdrawalRequested')).toHaveLength(1);
    expect(await streamBalance(member.id)).toBe(7_000);
  });

  it('50 concurrent withdrawals of the whole ₦10,000: exactly one is accepted, 49 refused, the wallet debited once', async () => {
    await settings(weeklyOnFriday);
    const member = await walletHolder(10_000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => initiate(member, 10_000)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 422);
    expect(refused).toHaveLength(49);
    expect(new Set(refused.map((a) => a.body.message))).toEqual(new Set(['Insufficient wallet balance.']));
    expect(await walletEvents(member.id, 'WithdrawalRequested')).toHaveLength(1);
    expect(await streamBalance(member.id)).toBe(0);
    expect(await ledger(member.id)).toMatchObject({ total_withdrawn: 10_000, balance: 0 });
  });

  it('20 concurrent withdrawals of ₦2,000 from ₦40,000: each read at the same version, all accepted (a lost append re-runs under the wallet lock), the wallet debited 20 times', async () => {
    await settings(weeklyOnFriday);
    const member = await walletHolder(40_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => initiate(member, 2_000)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const events = await walletEvents(member.id, 'WithdrawalRequested');
    expect(events).toHaveLength(20);
    expect(await streamBalance(member.id)).toBe(0);
    expect(await ledger(member.id)).toMatchObject({ total_withdrawn: 40_000, balance: 0 });
  });
});

describe('sending: on the payout schedule, or at once; outcomes from the provider', () => {
  it('keeps a withdrawal pending until the scheduled run on the payout day (Friday), then sends the net amount once under the reference derived from its id', async () => {
    await settings(weeklyOnFriday);
    const member = await walletHolder(10_000);
    const made = await initiate(member, 10_000);
    const id = made.body.data.id as string;
    expect(made.body.data.status).toBe('pending');

    expect(await payouts(THURSDAY)).toMatchObject({ payout_day: false });
    expect(await statusOf(id)).toBe('pending');

    expect(await payouts(FRIDAY)).toMatchObject({ payout_day: true });
    await eventuallyStatus(id, 'successful');
    const transfers = t.paystack.transfers().filter((transfer) => transfer.reference === transferReference(id));
    expect(transfers).toEqual([expect.objectContaining({ amountKobo: 985_000, status: 'success' })]);

    await payouts(FRIDAY);
    expect(t.paystack.transfers().filter((transfer) => transfer.reference === transferReference(id))).toHaveLength(1);
    expect(await walletEvents(member.id, 'WithdrawalSucceeded')).toHaveLength(1);
    expect((await h.call('GET', `/api/withdrawals/${member.id}/user-total`, { token: member.token })).body.data).toMatchObject({ total: 10_000, successful: 10_000 });
  });

  it('sends at once without a schedule; the duplicate transfer.success webhooks change nothing', async () => {
    await settings(noSchedule);
    const member = await walletHolder(10_000);
    const made = await initiate(member, 4_000);
    expect(made.body.data.status).toBe('successful');
    await t.paystack.whenIdle();
    const reference = transferReference(made.body.data.id);
    expect(t.paystack.webhooks().filter((w) => w.reference === reference).map((w) => w.event)).toEqual(['transfer.success']);
    const index = t.paystack.webhooks().findIndex((w) => w.reference === reference);
    await t.paystack.redeliverWebhook(index);
    await t.paystack.redeliverWebhook(index);
    expect(t.paystack.webhooks()[index]!.attempts).toBe(3);
    expect(await walletEvents(member.id, 'WithdrawalSucceeded')).toHaveLength(1);
    expect(await walletEvents(member.id, 'WithdrawalSent')).toHaveLength(1);
    expect(await streamBalance(member.id)).toBe(6_000);
  });

  it('a failed transfer returns the whole amount to the wallet, once, however often its webhook comes', async () => {
    await settings(noSchedule);
    const member = await walletHolder(10_000);
    t.paystack.setTransferMode('fail');
    try {
      const made = await initiate(member, 10_000);
      expect(['processing', 'failed']).toContain(made.body.data.status);
      await eventuallyStatus(made.body.data.id, 'failed');
      const failed = await walletEvents(member.id, 'WithdrawalFailed');
      expect(failed.map((e) => e.data)).toEqual([expect.objectContaining({ outcome: 'failed', returned_kobo: 1_000_000, via: 'webhook' })]);
      expect(await streamBalance(member.id)).toBe(10_000);
      const webhook = t.paystack.webhooks().findIndex((w) => w.reference === transferReference(made.body.data.id) && w.event === 'transfer.failed');
      await t.paystack.redeliverWebhook(webhook);
      expect(await walletEvents(member.id, 'WithdrawalFailed')).toHaveLength(1);
      expect(await streamBalance(member.id)).toBe(10_000);
      expect(await ledger(member.id)).toMatchObject({ total_withdrawn: 0, balance: 10_000 });
      expect((await h.call('GET', `/api/withdrawals/${made.body.data.id}/details`, { token: member.token })).body.data).toMatchObject({ status: 'failed', failure_reason: 'The transfer failed.' });
    } finally {
      t.paystack.setTransferMode('success');
    }
  });

  it('a reversed transfer returns the money too, and it can be withdrawn again', async () => {
    await settings(noSchedule);
    const member = await walletHolder(8_000);
    t.paystack.setTransferMode('reverse');
    let id: string;
    try {
      id = (await initiate(member, 8_000)).body.data.id;
      await eventuallyStatus(id, 'failed');
    } finally {
      t.paystack.setTransferMode('success');
    }
    expect((await walletEvents(member.id, 'WithdrawalFailed')).map((e) => e.data)).toEqual([expect.objectContaining({ outcome: 'reversed', returned_kobo: 800_000 })]);
    expect(await streamBalance(member.id)).toBe(8_000);
    expect((await initiate(member, 8_000)).body.data.status).toBe('successful');
    expect(await streamBalance(member.id)).toBe(0);
  });

  it('a transfer the provider holds as pending is processing until transfer.success', async () => {
    await settings(noSchedule);
    const member = await walletHolder(3_000);
    t.paystack.setTransferMode('pending');
    try {
      const made = await initiate(member, 3_000);
      expect(made.body.data.status).toBe('processing');
      await t.paystack.settleTransfer(transferReference(made.body.data.id), 'success');
      await eventuallyStatus(made.body.data.id, 'successful');
    } finally {
      t.paystack.setTransferMode('success');
    }
  });

  it('stays pending when the company’s provider balance is short, and the next run sends it under the same reference', async () => {
    await settings(noSchedule);
    const member = await walletHolder(6_000);
    t.paystack.setBalanceKobo(0);
    let id: string;
    try {
      id = (await initiate(member, 6_000)).body.data.id;
      expect(await statusOf(id)).toBe('pending');
    } finally {
      t.paystack.setBalanceKobo(1_000_000_000);
    }
    await payouts(THURSDAY);
    await eventuallyStatus(id, 'successful');
    expect(t.paystack.transfers().filter((transfer) => transfer.reference === transferReference(id))).toHaveLength(1);
  });
});

describe('the standing withdrawal amount', () => {
  it('is requested by each payout run the balance allows, once a day', async () => {
    await settings(weeklyOnFriday);
    const member = await walletHolder(8_000);
    expect(await h.call('PUT', '/api/users/withdrawal-amount', { token: member.token, body: { withdrawal_amount: 1_000 } })).toMatchObject({ status: 422, body: { message: 'The minimum withdrawal is ₦2,000.' } });
    expect(await h.call('PUT', '/api/users/withdrawal-amount', { token: member.token, body: { withdrawal_amount: 5_000 } })).toMatchObject({ status: 200, body: { message: 'Withdrawal amount updated successfully', data: { withdrawal_amount: 5_000 } } });
    expect((await h.call('GET', '/api/auth/user', { token: member.token })).body.data.withdrawal_amount).toBe(5_000);
    expect(await walletEvents(member.id, 'WithdrawalAmountSet')).toHaveLength(1);

    await ledger(member.id);
    await payouts(THURSDAY);
    expect(await walletEvents(member.id, 'WithdrawalRequested')).toHaveLength(0);
    await payouts(FRIDAY);
    await payouts('2030-11-29T18:00:00Z');
    const requested = await walletEvents(member.id, 'WithdrawalRequested');
    expect(requested.map((e) => e.data)).toEqual([expect.objectContaining({ amount_kobo: 500_000, automatic: true })]);
    await eventuallyStatus((requested[0]!.data as { withdrawal_id: string }).withdrawal_id, 'successful');

    // ₦3,000 left: the next Friday's ₦5,000 is not requested.
    await ledger(member.id);
    await payouts('2030-12-06T10:00:00Z');
    expect(await walletEvents(member.id, 'WithdrawalRequested')).toHaveLength(1);
    expect(await streamBalance(member.id)).toBe(3_000);
  });
});

describe('admin payouts and company finance', () => {
  it('sends a fee-free payout with its narration at once, even to an inactive member, and counts it in company finance', async () => {
    await settings(weeklyOnFriday);
    const before = (await h.call('GET', '/api/bonuses/company-wallet-balance', { token: admin })).body.data;
    const member = await walletHolder(5_000, { active: false });
    const paid = await h.call('POST', `/api/payments/${member.id}/bank-transfer`, { token: admin, body: { amount: 1_500, reason: 'Refund of overpayment' } });
    expect(paid).toMatchObject({ status: 200, body: { message: 'Payout successful', data: { type: 'payout', amount: 1_500, fee: 0, net_amount: 1_500, reason: 'Refund of overpayment' } } });
    await eventuallyStatus(paid.body.data.id, 'successful');
    expect(t.paystack.transfers().find((transfer) => transfer.reference === transferReference(paid.body.data.id))).toMatchObject({ amountKobo: 150_000, reason: 'Refund of overpayment' });
    expect(await streamBalance(member.id)).toBe(3_500);
    expect((await walletEvents(member.id, 'WithdrawalRequested'))[0]!.metadata.actor).toMatchObject({ type: 'admin' });

    expect(await h.call('POST', `/api/payments/${member.id}/bank-transfer`, { token: admin, body: { amount: 3_501, narration: 'Too much' } })).toMatchObject({ status: 422, body: { message: 'Insufficient wallet balance.' } });
    expect(await h.call('POST', `/api/payments/${member.id}/bank-transfer`, { token: admin, body: { amount: 100 } })).toMatchObject({ status: 422, body: { message: 'The narration is required.' } });

    const after = (await h.call('GET', '/api/bonuses/total-company-wallet', { token: admin })).body.data;
    expect(after.total_withdrawals - before.total_withdrawals).toBe(1_500);
    expect(after.balance).toBe(after.total_company_wallet - after.total_withdrawals);
    // Activation of a member is ₦35,000 received.
    await h.payByReceipt(member);
    const activated = (await h.call('GET', '/api/bonuses/company-wallet-balance', { token: admin })).body.data;
    expect(activated.total_company_wallet - after.total_company_wallet).toBe(35_000);
  });
});

describe('who may do what', () => {
  it('answers 401 without a sign-in and 403 to the wrong people', async () => {
    const one = await walletHolder(5_000);
    const other = await walletHolder(5_000);
    const finance = await h.adminToken('finance');
    const made = await initiate(one, 2_000);
    expect(made.status).toBe(200);

    expect((await h.call('POST', `/api/withdrawals/${one.id}/initiate`, { body: { amount: 2_000 } })).status).toBe(401);
    expect((await initiate({ id: one.id, token: other.token }, 2_000)).status).toBe(403);
    expect((await initiate({ id: one.id, token: admin }, 2_000)).status).toBe(403);
    expect((await h.call('GET', `/api/withdrawals/${one.id}/user-history`, { token: other.token })).status).toBe(403);
    expect((await h.call('GET', `/api/withdrawals/${one.id}/user-total`, { token: other.token })).status).toBe(403);
    expect((await h.call('GET', `/api/withdrawals/${one.id}/pending`, { token: other.token })).status).toBe(403);
    expect((await h.call('GET', `/api/withdrawals/${made.body.data.id}/details`, { token: other.token })).status).toBe(403);
    for (const url of ['/api/withdrawals/all', '/api/withdrawals/search?search=x', '/api/withdrawals/total', '/api/bonuses/company-wallet-balance', '/api/bonuses/total-company-wallet']) {
      expect((await h.call('GET', url, { token: one.token })).status, url).toBe(403);
      expect((await h.call('GET', url, { token: finance })).status, url).toBe(200);
    }
    expect((await h.call('POST', `/api/payments/${one.id}/bank-transfer`, { token: finance, body: { amount: 100, reason: 'x' } })).status).toBe(403);
    expect((await h.call('POST', `/api/payments/${one.id}/bank-transfer`, { token: one.token, body: { amount: 100, reason: 'x' } })).status).toBe(403);
    expect((await h.call('PUT', '/api/users/withdrawal-amount', { token: admin, body: { withdrawal_amount: 5_000 } })).status).toBe(403);
    expect(await streamBalance(one.id)).toBe(3_000);
  });

  it('lists every withdrawal for admins, newest first, 10 a page', async () => {
    const all = await h.call('GET', '/api/withdrawals/all?page=1', { token: admin });
    expect(all.body.data).toMatchObject({ current_page: 1, per_page: 10 });
    expect(all.body.data.total).toBeGreaterThan(10);
    expect(all.body.data.data).toHaveLength(10);
    const createdAt = all.body.data.data.map((w: { created_at: string }) => w.created_at);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);
    expect((await h.call('GET', '/api/withdrawals/total', { token: admin })).body.data.total).toBeGreaterThan(0);
  });
});

describe('paying from the wallet (the wallet’s half, for the payments capability)', () => {
  it('debits ₦5,000 of ₦12,000 once per payment id and refuses more than the balance', async () => {
    const member = await walletHolder(12_000);
    const paymentId = randomUUID();
    const metadata = { actor: { type: 'member' as const, id: member.id }, now: new Date().toISOString() };
    const pay = (id: string, naira: number) =>
      runInTransaction(t.runtime.commands, (trx) => debitWalletForPayment(trx, { paymentId: id, memberId: member.id, purpose: 'upgrade', amountKobo: naira * 100, description: 'Package upgrade', packageId: 3 }, metadata));
    expect(await pay(paymentId, 5_000)).toEqual({ debited: true });
    expect(await pay(paymentId, 5_000)).toEqual({ debited: false });
    await expect(pay(randomUUID(), 7_001)).rejects.toThrow('Insufficient wallet balance.');
    expect(await streamBalance(member.id)).toBe(7_000);
    expect(await ledger(member.id)).toMatchObject({ total_spent: 5_000, balance: 7_000 });
  });
});

describe('the wallet ledger follows the debits', () => {
  it('rebuilt from the log, equals the live ledger', async () => {
    expect((await drainAll(t.runtime.db, walletLedgerProjection)).status).toBe('caught_up');
    const live = await t.runtime.db.selectFrom('wallets').selectAll().orderBy('member_id').execute();
    await rebuildProjection(t.runtime.db, walletLedgerProjection);
    const rebuilt = await t.runtime.db.selectFrom('wallets').selectAll().orderBy('member_id').execute();
    expect(rebuilt.map(({ updated_at: _u, ...rest }) => rest)).toEqual(live.map(({ updated_at: _u, ...rest }) => rest));
    expect(live.every((wallet) => wallet.balance >= 0)).toBe(true);
  });
});
