import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as startAtLogEnd } from '../../../migrations/2026_11_26_mails_00_notifications_start_at_log_end';
import type { CapturedMail } from '../../../infra/src/mail-capture';
import { createTestApp, type TestApp } from '../../test/app';
import { drainAll, settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { tinyPng } from '../../test/multipart';
import { creditWallet } from '../../test/wallet';
import { compensationPolicy, walletLedgerProjection } from '../compensation/projections';
import { awardBonusesPolicy } from '../incentives/projections';
import { pointsPolicy } from '../points/projections';
import { naira } from './layout';
import { NOTIFICATIONS_POLICY, memberNotificationsPolicy } from './policy';

/**
 * Decisions made through the real app, the worker's consumers drained as the worker would, and the
 * mails read from the local mail capture after the outbox delivered them (docs/notifications.md).
 */
const PUBLIC = 'https://portal.example.test';
const notifications = memberNotificationsPolicy({ publicUrl: () => PUBLIC });

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  const unscheduled = await h.call('PUT', '/api/settings/update', { token: admin, body: { withdrawal_type: null } });
  expect(unscheduled.status, unscheduled.body.message).toBe(200);
});
afterAll(async () => t.close());

/** The worker's part: points, bonuses, the ledger, then the notifications policy. */
const settle = () => settleConsumers(t.runtime.db, [pointsPolicy, compensationPolicy, awardBonusesPolicy, walletLedgerProjection, notifications]);

const to = (member: { email: string }) => (mail: CapturedMail) => mail.to.some((address) => address.toLowerCase() === member.email.toLowerCase());

/** The one delivered mail to the member whose subject matches (waits for delivery first). */
async function mailTo(member: { email: string }, subject: RegExp): Promise<CapturedMail> {
  await t.mail.waitFor((mail) => to(member)(mail) && subject.test(mail.subject));
  const matching = t.mail.messages().filter((mail) => to(member)(mail) && subject.test(mail.subject));
  expect(matching).toHaveLength(1);
  return matching[0]!;
}

/** The kinds of decision mail the outbox holds for a member, oldest first. */
async function decisionMailsOf(member: { email: string }): Promise<string[]> {
  const rows = await t.runtime.db.selectFrom('mail_outbox').select('category').where(sql`lower(recipient)`, '=', member.email.toLowerCase()).where('dedupe_key', 'is not', null).orderBy('id').execute();
  return rows.map((row) => row.category).filter((category) => category !== 'code');
}

async function withBank(member: Member) {
  const saved = await h.call('PUT', `/api/users/${member.id}/update-bank-details`, { token: member.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } });
  expect(saved.status, saved.body.message).toBe(200);
}

async function waitForEvent(memberId: string, type: string) {
  await t.paystack.whenIdle();
  for (let i = 0; i < 100; i++) {
    const found = await t.runtime.db.selectFrom('events').select('event_id').where('stream_id', '=', `wallet-${memberId}`).where('type', '=', type).executeTakeFirst();
    if (found) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.paystack.whenIdle();
  }
  throw new Error(`no ${type} for ${memberId}`);
}

describe('package payments', () => {
  it('a receipt approved: one mail, that the account is active, with the amount paid, in HTML and text, linking to the dashboard', async () => {
    const member = await h.registeredMember({ package_id: 2 });
    await h.payByReceipt(member);
    await settle();
    const mail = await mailTo(member, /^Your account is active$/);
    expect(mail.text).toContain(`Hello ${member.first_name},`);
    expect(mail.text).toContain('Your bank transfer receipt of ₦35,000.00 for the Bronze package was approved, and your account is now active.');
    expect(mail.text).toContain(`${PUBLIC}/user/dashboard`);
    expect(mail.html).toContain(`href="${PUBLIC}/user/dashboard"`);
    expect(mail.html).toContain('₦35,000.00');
    // The approval and the activation are one decision to the member: one mail, not two.
    expect(await decisionMailsOf(member)).toEqual(['activated']);
  });

  it('a receipt declined: the reason as the admin wrote it (escaped in HTML), and the way back to paying', async () => {
    const member = await h.registeredMember({ package_id: 2 });
    const payment = await h.uploadReceipt(member);
    const reason = 'The receipt shows <₦30,000> & not ₦35,000';
    await h.decideReceipt(payment, 'disapprove', reason);
    await settle();
    const mail = await mailTo(member, /^Your registration payment was declined$/);
    expect(mail.text).toContain(`Reason: ${reason}`);
    expect(mail.html).toContain('The receipt shows &lt;₦30,000&gt; &amp; not ₦35,000');
    expect(mail.html).not.toContain('<₦30,000>');
    expect(mail.text).toContain(`${PUBLIC}/welcome`);
    expect(await decisionMailsOf(member)).toEqual(['payment-declined']);
  });

  it('an upgrade approved names both packages and what was paid', async () => {
    const member = await h.activeMember({ package_id: 2 });
    await h.payByReceipt(member, { upgradeTo: 3 });
    await settle();
    const mail = await mailTo(member, /^Your upgrade to Silver is approved$/);
    expect(mail.text).toContain('From: Bronze');
    expect(mail.text).toContain('To: Silver');
    expect(mail.text).toContain(`${PUBLIC}/user/dashboard`);
    expect(await decisionMailsOf(member)).toEqual(['activated', 'upgrade-approved']);
  });

  it('bonuses held while a member’s own receipt waited are announced once, as their sum, when it is approved', async () => {
    const sponsor = await h.registeredMember({ package_id: 2 }, { asParent: true });
    const sponsorPayment = await h.uploadReceipt(sponsor);
    await h.payByReceipt(await h.registeredMember({ package_id: 2, referrer: sponsor.username }));
    await h.payByReceipt(await h.registeredMember({ package_id: 2, referrer: sponsor.username }));
    await settle();
    expect(await decisionMailsOf(sponsor)).toEqual([]);

    await h.decideReceipt(sponsorPayment, 'approve');
    await settle();
    const released = await t.runtime.db
      .selectFrom('wallet_entries')
      .select((eb) => [eb.fn.sum<string>('amount').as('total'), eb.fn.countAll<string>().as('count')])
      .where('member_id', '=', sponsor.id)
      .where('entry', '=', 'credited')
      .where('settles_hold', '=', true)
      .executeTakeFirstOrThrow();
    // Two referral bonuses at least (10% of ₦35,000 each), settled by one approval.
    expect(Number(released.total)).toBeGreaterThanOrEqual(700_000);
    const mail = await mailTo(sponsor, /of held bonuses is now in your wallet$/);
    expect(mail.subject).toBe(`${naira(Number(released.total))} of held bonuses is now in your wallet`);
    expect(mail.text).toContain(`${released.count} bonuses earned while your registration payment awaited approval were credited`);
    expect(mail.text).toContain(`${PUBLIC}/user/wallet`);
    expect(await decisionMailsOf(sponsor)).toEqual(['activated', 'held-bonuses-released']);
  });
});

describe('orders paid by receipt', () => {
  it('an order’s receipt approved tells the order code to collect it with; another declined gives the reason', async () => {
    const member = await h.activeMember({ package_id: 2 });
    const products = await h.call('GET', '/api/products/active', { token: member.token });
    const product = (products.body.data as Array<{ id: number; worth: number; points: number }>)[0]!;
    const order = async () => {
      const fields = {
        txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', payment_type: 'pop',
        amount: product.worth, total_price: product.worth, total_quantity: 1, total_points: product.points, products: JSON.stringify([{ id: product.id, qty: 1 }]),
      };
      const uploaded = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields, files: { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } } });
      expect(uploaded.status, uploaded.body.message).toBe(200);
      return uploaded.body.data.payment_id as string;
    };
    const approvedPayment = await order();
    await h.decideReceipt(approvedPayment, 'approve');
    await h.decideReceipt(await order(), 'disapprove', 'The receipt is for another order.');
    await settle();
    const purchase = await t.runtime.db.selectFrom('product_purchases').select('order_code').where('payment_id', '=', approvedPayment).executeTakeFirstOrThrow();
    expect(purchase.order_code).toMatch(/^[A-Z0-9]{8}$/);
    const yes = await mailTo(member, /^Your order payment is approved$/);
    expect(yes.text).toContain(`Your bank transfer receipt of ${naira(product.worth * 100)} for your order was approved.`);
    expect(yes.text).toContain(`Order code: ${purchase.order_code}`);
    expect(yes.text).toContain(`${PUBLIC}/user/repurchase`);
    const no = await mailTo(member, /^Your order payment was declined$/);
    expect(no.text).toContain('Reason: The receipt is for another order.');
    expect(no.text).toContain(`${PUBLIC}/user/repurchase`);
  });
});

describe('withdrawals and payouts, through the Paystack stand-in', () => {
  it('a withdrawal sent and then paid: two mails with what left the wallet, the charge, and what the bank got', async () => {
    const member = await h.activeMember({ package_id: 2 });
    await withBank(member);
    await creditWallet(t.runtime.db, member.id, 1_000_000);
    const made = await h.call('POST', `/api/withdrawals/${member.id}/initiate`, { token: member.token, body: { amount: 4_000 } });
    expect(made.status, made.body.message).toBe(200);
    await waitForEvent(member.id, 'WithdrawalSucceeded');
    await settle();
    const row = await t.runtime.db.selectFrom('withdrawals').select(['amount', 'fee', 'net_amount']).where('id', '=', made.body.data.id).executeTakeFirstOrThrow();
    expect(row.amount).toBe(400_000);
    const sent = await mailTo(member, /^Your withdrawal of ₦4,000\.00 is on its way$/);
    expect(sent.text).toContain(`Charge: ${naira(row.fee)}`);
    expect(sent.text).toContain(`Sent to your bank: ${naira(row.net_amount)}`);
    expect(sent.text).toContain('account ending 6789');
    expect(sent.text).not.toContain('0123456789');
    const paid = await mailTo(member, new RegExp(`^Your withdrawal of ${naira(row.net_amount).replace(/[.$]/g, '\\$&')} was paid$`));
    expect(paid.text).toContain(`${PUBLIC}/user/wallet`);
    expect(await decisionMailsOf(member)).toEqual(['activated', 'withdrawal-sent', 'withdrawal-paid']);
  });

  it('a failed transfer: the mail says the whole amount is back in the wallet, and why', async () => {
    const member = await h.activeMember({ package_id: 2 });
    await withBank(member);
    await creditWallet(t.runtime.db, member.id, 500_000);
    t.paystack.setTransferMode('fail');
    try {
      const made = await h.call('POST', `/api/withdrawals/${member.id}/initiate`, { token: member.token, body: { amount: 5_000 } });
      expect(made.status, made.body.message).toBe(200);
      await waitForEvent(member.id, 'WithdrawalFailed');
    } finally {
      t.paystack.setTransferMode('success');
    }
    await settle();
    const mail = await mailTo(member, /^Your withdrawal did not go through: ₦5,000\.00 is back in your wallet$/);
    expect(mail.text).toContain('Returned to your wallet: ₦5,000.00');
    expect(mail.text).toContain('Reason: The transfer failed.');
    expect(mail.text).toContain(`${PUBLIC}/user/wallet`);
  });

  it('an admin payout: one mail that it is on its way (with the narration), one when it is paid; no separate "sent" mail', async () => {
    const member = await h.activeMember({ package_id: 2 });
    await withBank(member);
    await creditWallet(t.runtime.db, member.id, 500_000);
    const paid = await h.call('POST', `/api/payments/${member.id}/bank-transfer`, { token: admin, body: { amount: 1_500, reason: 'Refund of overpayment' } });
    expect(paid.status, paid.body.message).toBe(200);
    await waitForEvent(member.id, 'WithdrawalSucceeded');
    await settle();
    const made = await mailTo(member, /^A payout of ₦1,500\.00 is on its way$/);
    expect(made.text).toContain('Reason: Refund of overpayment');
    expect(made.text).toContain('free of charge');
    await mailTo(member, /^Your payout of ₦1,500\.00 was paid$/);
    expect(await decisionMailsOf(member)).toEqual(['activated', 'payout-made', 'withdrawal-paid']);
  });
});

describe('incentives', () => {
  it('a claim declined (with the reason), then claimed again and approved: a mail for each decision', async () => {
    const member = await h.activeMember({ package_id: 2 });
    await settle();
    const claim = () => h.call('POST', `/api/incentive-claims/${member.id}/create`, { token: member.token, body: { rank_id: 1, incentive_id: 1 } });
    const first = await claim();
    expect(first.status, first.body.message).toBe(200);
    const declined = await h.call('PUT', `/api/incentive-claims/${first.body.data.id}/decline`, { token: admin, body: { reason: 'Please send a photo of your ID card first.' } });
    expect(declined.status, declined.body.message).toBe(200);
    await settle();
    const no = await mailTo(member, /incentive claim was declined$/);
    expect(no.text).toContain('Reason: Please send a photo of your ID card first.');

    const second = await claim();
    expect(second.status, second.body.message).toBe(200);
    expect((await h.call('PUT', `/api/incentive-claims/${second.body.data.id}/approve`, { token: admin })).status).toBe(200);
    await settle();
    const yes = await mailTo(member, /incentive is approved$/);
    expect(yes.text).toContain('Worth: ₦15,000.00');
    expect(yes.text).toContain(`${PUBLIC}/user/dashboard`);
  });
});

describe('stockists', () => {
  const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };
  const store = (name: string) => ({ store_name: name, store_address: '12 Allen Avenue, Ikeja', store_state: 'Lagos', store_phone: '08031234567', package_id: 1 });

  let stockist: Member;
  it('an application disapproved (with the reason), another approved: each tells the member', async () => {
    const signee = await h.activeMember({ package_id: 2 });
    const refused = await h.activeMember({ package_id: 2 });
    const applied = await h.upload('POST', '/api/stockists/create', { token: refused.token, fields: { ...store('Refused & Sons'), referrer: signee.username }, files: receipt });
    expect(applied.status, applied.body.message).toBe(200);
    const disapproved = await h.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/disapprove-registration`, { token: admin, body: { reason: 'The receipt is unreadable.' } });
    expect(disapproved.status, disapproved.body.message).toBe(200);

    stockist = await h.activeMember({ package_id: 2 });
    const application = await h.upload('POST', '/api/stockists/create', { token: stockist.token, fields: { ...store('Ikeja Herbs'), referrer: signee.username }, files: receipt });
    expect(application.status, application.body.message).toBe(200);
    expect((await h.call('PATCH', `/api/stockists/${application.body.data.payment_id}/approve-registration`, { token: admin })).status).toBe(200);
    await settle();

    const no = await mailTo(refused, /^Your stockist application was not approved$/);
    expect(no.text).toContain('The application for Refused & Sons was not approved.');
    expect(no.html).toContain('Refused &amp; Sons');
    expect(no.text).toContain('Reason: The receipt is unreadable.');
    expect(no.text).toContain(`${PUBLIC}/user/stockist-registration`);
    const yes = await mailTo(stockist, /^Ikeja Herbs is approved as a stockist$/);
    expect(yes.text).toContain(`${PUBLIC}/user/stockist-profile`);
  });

  it('stock purchases declined and approved, and a member’s order collected at the store: each tells its member', async () => {
    const products = await h.call('GET', '/api/products/active', { token: stockist.token });
    const product = (products.body.data as Array<{ id: number; worth: number; name: string }>)[0]!;
    const buyStock = async () => {
      const bought = await h.upload('POST', `/api/product-purchases/stockist/${stockist.id}`, {
        token: stockist.token,
        fields: { pickup_type: 'registration_pickup', products: JSON.stringify([{ id: product.id, qty: 2 }]) },
        files: receipt,
      });
      expect(bought.status, bought.body.message).toBe(200);
      return bought.body.data.id as string;
    };
    const declinedPurchase = await buyStock();
    expect((await h.call('PATCH', `/api/product-purchases/${declinedPurchase}/disapprove-stock`, { token: admin, body: { reason: 'The transfer has not arrived.' } })).status).toBe(200);
    expect((await h.call('PATCH', `/api/product-purchases/${await buyStock()}/approve-stock`, { token: admin })).status).toBe(200);
    await settle();
    const stockDeclined = await mailTo(stockist, /^Your stock purchase was declined$/);
    expect(stockDeclined.text).toContain('Reason: The transfer has not arrived.');
    const stock = await mailTo(stockist, /^Your stock purchase is approved$/);
    expect(stock.text).toContain(`Your stock purchase of ${naira(product.worth * 2 * 100)} was approved and 2 units were added to your stock.`);
    expect(stock.text).toContain(`${PUBLIC}/user/stock-purchase`);

    // A member's order, collected at the store: the member who ordered hears where.
    const buyer = await h.activeMember({ package_id: 2 });
    await creditWallet(t.runtime.db, buyer.id, product.worth * 100);
    await settle();
    const paid = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', {
      token: buyer.token,
      body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: product.worth, products: [{ id: product.id, qty: 1 }] },
    });
    expect(paid.status, paid.body.message).toBe(200);
    const collected = await h.call('PATCH', `/api/product-purchases/${paid.body.data.purchase_id}/vendor-approve`, { token: stockist.token });
    expect(collected.status, collected.body.message).toBe(200);
    await settle();
    const order = await t.runtime.db.selectFrom('product_purchases').select('order_code').where('id', '=', paid.body.data.purchase_id).executeTakeFirstOrThrow();
    const handedOver = await mailTo(buyer, /^Your order was collected$/);
    expect(handedOver.text).toContain(`Your order ${order.order_code} of ${naira(product.worth * 100)} was handed over at Ikeja Herbs, 12 Allen Avenue, Ikeja.`);
    expect(handedOver.text).toContain(`${PUBLIC}/user/repurchase`);
    expect(await decisionMailsOf(stockist)).toEqual(['activated', 'stockist-approved', 'stock-purchase-declined', 'stock-purchase-approved']);
  });

  it('a stockist package upgrade disapproved (with the reason), then approved', async () => {
    const signee = await h.activeMember({ package_id: 2 });
    const owner = await h.activeMember({ package_id: 2 });
    const applied = await h.upload('POST', '/api/stockists/create', { token: owner.token, fields: { ...store('Owerri Roots'), referrer: signee.username }, files: receipt });
    expect(applied.status, applied.body.message).toBe(200);
    expect((await h.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/approve-registration`, { token: admin })).status).toBe(200);
    const requestUpgrade = async () => {
      const requested = await h.upload('POST', `/api/stockists/${applied.body.data.id}/upgrade`, { token: owner.token, fields: { stockist_package_id: 2 }, files: receipt });
      expect(requested.status, requested.body.message).toBe(200);
      const pending = await t.runtime.db.selectFrom('stockist_payments').select('id').where('stockist_id', '=', applied.body.data.id).where('kind', '=', 'upgrade').where('status', '=', 'processing').executeTakeFirstOrThrow();
      return pending.id;
    };
    const refused = await h.call('PATCH', `/api/stockists/${await requestUpgrade()}/disapprove-upgrade`, { token: admin, body: { reason: 'Pay the difference, not the full price.' } });
    expect(refused.status, refused.body.message).toBe(200);
    expect((await h.call('PATCH', `/api/stockists/${await requestUpgrade()}/approve-upgrade`, { token: admin })).status).toBe(200);
    await settle();
    const no = await mailTo(owner, /^Your stockist upgrade was not approved$/);
    expect(no.text).toContain('Reason: Pay the difference, not the full price.');
    const yes = await mailTo(owner, /^Owerri Roots is upgraded to Standard Stockist$/);
    expect(yes.text).toContain('Amount paid: ₦150,000.00');
    expect(yes.text).toContain(`${PUBLIC}/user/stockist-profile`);
  });
});

describe('exactly once, and never the past', () => {
  it('replaying the whole log through the policy, and draining again, mails nothing twice', async () => {
    await settle();
    await t.mail.waitFor(() => true);
    const before = { outbox: await t.runtime.db.selectFrom('mail_outbox').select('id').execute(), delivered: t.mail.messages().length };
    await sql`update consumer_checkpoints set last_transaction_id = '0', last_global_position = 0 where name = ${NOTIFICATIONS_POLICY}`.execute(t.runtime.db);
    const replay = await drainAll(t.runtime.db, notifications);
    expect(replay.status).toBe('caught_up');
    expect(replay.applied).toBeGreaterThan(10);
    expect((await drainAll(t.runtime.db, notifications)).applied).toBe(0);
    await t.mailDelivery.settled();
    expect(await t.runtime.db.selectFrom('mail_outbox').select('id').execute()).toEqual(before.outbox);
    expect(t.mail.messages()).toHaveLength(before.delivered);
  });

  it('a decision older than three days when the policy reads it is not mailed', async () => {
    await settle();
    const member = await h.registeredMember({ package_id: 2 });
    await h.payByReceipt(member);
    const late = memberNotificationsPolicy({ publicUrl: () => PUBLIC, now: () => new Date(t.clock.now.getTime() + 4 * 24 * 60 * 60_000) });
    expect((await drainAll(t.runtime.db, late)).applied).toBeGreaterThan(0);
    expect(await decisionMailsOf(member)).toEqual([]);
  });

  it('first deployed on a database with a log, the policy starts at its end: the history is not mailed', async () => {
    const member = await h.registeredMember({ package_id: 2 });
    await h.payByReceipt(member);
    await sql`delete from consumer_checkpoints where name = ${NOTIFICATIONS_POLICY}`.execute(t.runtime.db);
    await startAtLogEnd(t.runtime.db);
    const last = await t.runtime.db.selectFrom('events').select('global_position').orderBy('transaction_id', 'desc').orderBy('global_position', 'desc').limit(1).executeTakeFirstOrThrow();
    const checkpoint = await t.runtime.db.selectFrom('consumer_checkpoints').select('last_global_position').where('name', '=', NOTIFICATIONS_POLICY).executeTakeFirstOrThrow();
    expect(Number(checkpoint.last_global_position)).toBe(Number(last.global_position));
    expect((await drainAll(t.runtime.db, notifications)).applied).toBe(0);
    expect(await decisionMailsOf(member)).toEqual([]);

    // Decisions after the deployment are mailed.
    const next = await h.registeredMember({ package_id: 2 });
    await h.payByReceipt(next);
    await settle();
    await mailTo(next, /^Your account is active$/);
  });
});
