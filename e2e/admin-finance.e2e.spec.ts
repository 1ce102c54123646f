import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { creditWallet } from '../services/test/wallet';
import { type MemberAppTest, fullShot, shots, signInAdmin, startMemberApp } from './member-app';

/**
 * The back office's money out and company figures: Company Finance (seed 001 §2.9) with the payment
 * provider's balance and its Reload button, Withdrawal History (seed 002 tab 1) over withdrawals
 * members make in this test, one withdrawal's history, and Product Sales History (seed 002 tab 3)
 * before and after a repurchase.
 */
let app: MemberAppTest;
type Member = Awaited<ReturnType<MemberAppTest['http']['activeMember']>>;
let adaeze: Member;
let bayo: Member;
let admin: string;
const ids = { queued: '', paid: '', reversed: '' };

/** ₦ with US grouping and two decimals, as the back office shows money. */
const naira = (n: number) => `₦${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim();

async function walletHolder(overrides: Record<string, unknown>, naira: number) {
  const member = await app.http.activeMember(overrides);
  const saved = await app.http.call('PUT', `/api/users/${member.id}/update-bank-details`, { token: member.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } });
  expect(saved.status, saved.body.message).toBe(200);
  await creditWallet(app.t.runtime.db, member.id, naira * 100);
  return member;
}

async function withdrawalStatus(id: string) {
  return ((await app.http.call('GET', `/api/admin/withdrawals/${id}`, { token: admin })).body as unknown as { status: string }).status;
}

beforeAll(async () => {
  app = await startMemberApp();
  admin = await app.http.adminToken();
  adaeze = await walletHolder({ first_name: 'Adaeze', last_name: 'Nwosu' }, 50_000);
  bayo = await walletHolder({ first_name: 'Bayo', last_name: 'Adeyemi' }, 30_000);
  // The demo company pays on Fridays: Adaeze's withdrawal waits in the queue.
  const queued = await app.http.call('POST', `/api/withdrawals/${adaeze.id}/initiate`, { token: adaeze.token, body: { amount: 12_345.67 } });
  expect(queued.status, queued.body.message).toBe(200);
  ids.queued = queued.body.data.id;
  // Without a schedule Bayo's goes out at once and the bank confirms it.
  expect((await app.http.call('PUT', '/api/settings/update', { token: admin, body: { withdrawal_type: null } })).status).toBe(200);
  // The test app's clock stands still: move it on so each withdrawal has its own time.
  app.t.clock.advanceMinutes(1);
  const paid = await app.http.call('POST', `/api/withdrawals/${bayo.id}/initiate`, { token: bayo.token, body: { amount: 20_000 } });
  expect(paid.status, paid.body.message).toBe(200);
  ids.paid = paid.body.data.id;
  for (let i = 0; i < 100 && (await withdrawalStatus(ids.paid)) !== 'successful'; i++) {
    await app.t.paystack.whenIdle();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await withdrawalStatus(ids.paid)).toBe('successful');
  // The bank reverses Bayo's ₦4,000: the money goes back to his wallet.
  app.t.clock.advanceMinutes(1);
  app.t.paystack.setTransferMode('reverse');
  try {
    const reversed = await app.http.call('POST', `/api/withdrawals/${bayo.id}/initiate`, { token: bayo.token, body: { amount: 4_000 } });
    expect(reversed.status, reversed.body.message).toBe(200);
    ids.reversed = reversed.body.data.id;
    for (let i = 0; i < 100 && (await withdrawalStatus(ids.reversed)) !== 'failed'; i++) {
      await app.t.paystack.whenIdle();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await withdrawalStatus(ids.reversed)).toBe('failed');
  } finally {
    app.t.paystack.setTransferMode('success');
  }
  app.t.paystack.setBalanceKobo(123_456_789);
}, 120_000);
afterAll(async () => {
  await app?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-admin-finance-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

describe('company finance', () => {
  it('shows the company wallet, withdrawals and balance the API computes, and reloads the provider balance', async () => {
    const figures = (await app.http.call('GET', '/api/bonuses/total-company-wallet', { token: admin })).body.data;
    expect(figures.total_withdrawals).toBe(20_000);
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.getByRole('menuitem', { name: 'Company Finance' }).click();
    await page.waitForURL(/\/admin\/wallet$/);
    await poll(() => text(page, 'company-wallet')).toBe(naira(figures.total_company_wallet));
    expect(await text(page, 'company-withdrawals')).toBe('₦20,000.00');
    expect(await text(page, 'company-balance')).toBe(naira(figures.total_company_wallet - 20_000));
    await poll(() => text(page, 'provider-balance')).toBe('₦1,234,567.89');
    // Money out of member wallets: ₦20,000 paid and ₦12,345.67 queued.
    expect(await text(page, 'outflow-total')).toBe('₦32,345.67');
    expect(await text(page, 'outflow-paid')).toBe('₦20,000.00');
    expect(await text(page, 'outflow-queued')).toBe('₦12,345.67');
    await fullShot(page, 'admin-finance-company');

    app.t.paystack.setBalanceKobo(987_654_321);
    await page.getByRole('button', { name: 'Reload' }).click();
    await poll(() => text(page, 'provider-balance')).toBe('₦9,876,543.21');
    await fullShot(page, 'admin-finance-company-reloaded');
  });

  it('finance staff read the same figures', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/wallet`);
    await poll(() => text(page, 'company-withdrawals')).toBe('₦20,000.00');
    await poll(() => text(page, 'provider-balance')).toBe('₦9,876,543.21');
  });
});

describe('withdrawal history', () => {
  it('lists the members’ withdrawals with the total above, status chips, charge and net; searches; opens one with its history', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.goto(`${app.base}/admin/withdrawals`);
    await poll(() => text(page, 'withdrawals-total')).toBe('₦32,345.67');
    const rows = page.locator('tbody tr');
    await poll(() => rows.count()).toBe(3);
    // Newest first: Bayo's reversed ₦4,000, his paid ₦20,000 (charge 1.5% = ₦300), then Adaeze's queued ₦12,345.67 (₦185.18).
    expect(await rows.nth(0).textContent()).toContain('₦4,000.00');
    expect(await rows.nth(0).locator('.MuiChip-root').textContent()).toBe('Reversed');
    const first = rows.nth(1);
    await poll(() => first.textContent()).toContain(bayo.username);
    expect(await first.textContent()).toContain('Bayo Adeyemi');
    expect(await first.textContent()).toContain('₦20,000.00');
    expect(await first.textContent()).toContain('₦300.00');
    expect(await first.textContent()).toContain('₦19,700.00');
    expect(await first.locator('.MuiChip-root').textContent()).toBe('Paid');
    const second = rows.nth(2);
    expect(await second.textContent()).toContain('₦12,345.67');
    expect(await second.textContent()).toContain('₦185.18');
    expect(await second.textContent()).toContain('₦12,160.49');
    expect(await second.locator('.MuiChip-root').textContent()).toBe('Queued');
    expect((await rows.nth(0).locator('td').first().textContent())?.trim()).toBe('1');
    expect((await rows.nth(1).locator('td').first().textContent())?.trim()).toBe('2');
    expect((await rows.nth(2).locator('td').first().textContent())?.trim()).toBe('3');
    await fullShot(page, 'admin-finance-withdrawals');

    await page.locator('input[name=q]').fill('adaeze');
    await poll(() => rows.count()).toBe(1);
    await poll(() => rows.first().textContent()).toContain(adaeze.username);
    await fullShot(page, 'admin-finance-withdrawals-search');

    await rows.first().click();
    await page.waitForURL(new RegExp(`/admin/withdrawals/${ids.queued}/show`));
    await poll(() => text(page, 'withdrawal-status-meaning')).toBe('The wallet is debited; the transfer waits for the next payout run.');
    await expect.poll(() => page.getByText(`wdl_${ids.queued}`).count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-finance-withdrawal-show');
    await page.getByRole('tab', { name: 'History' }).click();
    await poll(() => page.getByText('Requested: wallet debited').count()).toBe(1);
    expect(await page.getByText('₦12,345.67 debited, ₦185.18 charge, ₦12,160.49 to be sent').count()).toBe(1);
    await fullShot(page, 'admin-finance-withdrawal-history');

    // The paid one's history: requested, sent, paid.
    await page.goto(`${app.base}/admin/withdrawals/${ids.paid}/show/history`);
    await poll(() => page.getByText('Paid into the bank account').count()).toBe(1);
    expect(await page.getByText('Sent to the payment provider').count()).toBe(1);
    await fullShot(page, 'admin-finance-withdrawal-paid-history');

    // The reversed one says what happened to the money.
    await page.goto(`${app.base}/admin/withdrawals/${ids.reversed}/show`);
    await poll(() => text(page, 'withdrawal-status-meaning')).toContain('The bank reversed the transfer; the whole amount went back to the wallet.');
    await fullShot(page, 'admin-finance-withdrawal-reversed');
    await page.getByRole('tab', { name: 'History' }).click();
    await poll(() => page.getByText('Failed: amount returned to the wallet').count()).toBe(1);
    await fullShot(page, 'admin-finance-withdrawal-reversed-history');
  });

  it('filters by status and says so when nothing matches', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/withdrawals?filter=${encodeURIComponent(JSON.stringify({ status: 'processing' }))}`);
    await poll(() => page.getByText('There are no withdrawals').count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-finance-withdrawals-none');
    await page.goto(`${app.base}/admin/withdrawals?filter=${encodeURIComponent(JSON.stringify({ status: 'successful' }))}`);
    await poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').first().textContent()).toContain(bayo.username);
  });
});

describe('product sales history', () => {
  it('says there are no repurchases, then shows the month of one and the total above', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.goto(`${app.base}/admin/product-sales`);
    await poll(() => page.getByText('There are no repurchases').count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-finance-sales-empty');

    // Adaeze buys 2 × Moringa (₦8,500) from her wallet.
    const products = (await app.http.call('GET', '/api/products/active', { token: adaeze.token })).body.data as Array<{ id: number; name: string; worth: number; points: number }>;
    const moringa = products.find((p) => p.name === 'Moringa Leaf Capsules')!;
    const cart = {
      txn_source: 'member_product_purchase',
      pickup_type: 'repurchase_pickup',
      description: 'Repurchase',
      amount: 2 * moringa.worth,
      total_price: 2 * moringa.worth,
      total_quantity: 2,
      total_points: 2 * moringa.points,
      products: [{ id: moringa.id, qty: 2 }],
    };
    const paid = await app.http.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: adaeze.token, body: cart });
    expect(paid.status, paid.body.message).toBe(200);

    await page.reload();
    await poll(() => text(page, 'sales-total')).toBe('₦17,000.00');
    const row = page.locator('tbody tr').first();
    const month = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'Africa/Lagos' }).format(app.t.clock.now);
    await poll(() => row.textContent()).toContain(month);
    expect(await row.textContent()).toContain('₦17,000.00');
    expect((await row.locator('td').nth(0).textContent())?.trim()).toBe('1');
    expect((await row.locator('td').nth(2).textContent())?.trim()).toBe('2');
    await fullShot(page, 'admin-finance-sales');
  });
});
