import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { settleConsumers } from '../services/test/consumers';
import { creditWallet } from '../services/test/wallet';
import { type MemberAppTest, fullShot, phone, screenfuls, shots, signInAdmin, startMemberApp, expectToast } from './member-app';

/**
 * The back office's dashboard (seed 001 §2.7, §3.8, §3.9) against the real api: a network built
 * here (two registrations, an upgrade, a repurchase, the bonuses they pay) shows on the dashboard's
 * figures in naira; the period switch re-reads them; the two message forms save through the
 * settings command with the seed's messages; finance staff see the figures but not the forms.
 */
let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => {
  await app?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-admin-dashboard-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

const naira = (n: number) => `₦${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

type Expected = { registrationAmount: number; upgradeAmount: number; repurchaseAmount: number };
let expected: Expected;

describe('admin dashboard', () => {
  it('shows the figures of a network built here, and the period switch re-reads them', async () => {
    const { http } = app;
    const admin = await http.adminToken();
    const packages = (await http.call('GET', '/api/packages/all', { token: admin })).body.data as Array<{ id: number; registration_value: number }>;
    const price = (id: number) => packages.find((p) => p.id === id)!.registration_value;

    // A (Bronze) under the root, B (Silver) sponsored by A; A upgrades to Gold; B repurchases from the wallet.
    const a = await http.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    const b = await http.activeMember({ referrer: a.username, package_id: 3 }, { asParent: true });
    await http.payByReceipt(a, { upgradeTo: 4 });
    const [product] = (await http.call('GET', '/api/products/active', { token: b.token })).body.data as Array<{ id: number; worth: number; points: number }>;
    await creditWallet(app.t.runtime.db, b.id, 50_000_000, app.t.clock.now);
    const total = 3 * product!.worth;
    const paid = await http.call('PATCH', '/api/withdrawals/pay-with-wallet', {
      token: b.token,
      body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: total, products: [{ id: product!.id, qty: 3 }], total_price: total, total_points: 3 * product!.points, total_quantity: 3 },
    });
    expect(paid.status, paid.body.message).toBe(200);
    await settleConsumers(app.t.runtime.db);
    expected = { registrationAmount: price(2) + price(3), upgradeAmount: price(4) - price(2), repurchaseAmount: total };

    // What the api says the bonuses, wallet and PV came to (the dashboard must show the same).
    const stats = (await http.call('GET', '/api/bonuses/bonus-stats', { token: admin })).body.data;
    const wallet = (await http.call('GET', '/api/bonuses/total-company-wallet', { token: admin })).body.data;
    const pv = (await http.call('GET', '/api/users/total-registration-pv', { token: admin })).body.data as number;
    const activeCount = (await http.call('GET', '/api/users/total-active-users', { token: admin })).body.data as number;
    expect(stats.referral_bonus_sum).toBeGreaterThan(0);
    expect(stats.upgrade_bonus_sum + stats.repurchase_bonus_sum + stats.unilevel_bonus_sum).toBeGreaterThan(0);
    expect(wallet.total_company_wallet).toBe(expected.registrationAmount + expected.upgradeAmount + expected.repurchaseAmount);

    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await poll(() => text(page, 'pickups-registration-count')).toBe('2');
    expect(await text(page, 'pickups-registration-amount')).toBe(naira(expected.registrationAmount));
    expect(await text(page, 'pickups-upgrade-count')).toBe('1');
    expect(await text(page, 'pickups-upgrade-amount')).toBe(naira(expected.upgradeAmount));
    expect(await text(page, 'pickups-repurchase-count')).toBe('1');
    expect(await text(page, 'pickups-repurchase-amount')).toBe(naira(expected.repurchaseAmount));
    expect(await text(page, 'pickups-total-amount')).toBe(naira(expected.registrationAmount + expected.upgradeAmount + expected.repurchaseAmount));
    // Two members registered (the root is not counted); active members and PV as the api counts them.
    await poll(() => text(page, 'total-registrations')).toBe('2');
    await poll(() => text(page, 'total-active')).toBe(`${activeCount} active members`);
    expect(await text(page, 'registration-pv')).toBe(`${pv.toLocaleString('en-US')} PV`);
    await poll(() => text(page, 'company-wallet')).toBe(naira(wallet.total_company_wallet));
    expect(await text(page, 'company-balance')).toBe(naira(wallet.balance));
    await poll(() => text(page, 'bonus-referral')).toBe(naira(stats.referral_bonus_sum));
    expect(await text(page, 'bonus-matching')).toBe(naira(stats.matching_bonus_sum));
    expect(await text(page, 'bonus-repurchase')).toBe(naira(stats.repurchase_bonus_sum));
    expect(await text(page, 'bonus-unilevel')).toBe(naira(stats.unilevel_bonus_sum));
    expect(await text(page, 'bonus-upgrade')).toBe(naira(stats.upgrade_bonus_sum));
    expect(await text(page, 'bonus-global_sharing')).toBe(naira(stats.global_profit_sum));
    expect(await text(page, 'bonus-global_sharing-eligible')).toBe(`${stats.global_profit_eligible_count} eligible`);
    expect(await text(page, 'bonuses-paid')).toBe(naira(stats.total_bonus_sum));
    await poll(() => page.getByTestId('payments-chart').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-dashboard-desktop');

    // The period switch: everything was paid today; this year the same. The bonus cards re-read bonus-stats?type=today.
    const todayStats = page.waitForResponse((r) => r.url().includes('/api/bonuses/bonus-stats?type=today') && r.ok());
    await page.getByRole('button', { name: 'Today', exact: true }).click();
    const today = (await (await todayStats).json()).data;
    expect(today).toMatchObject({ type: 'today', total_bonus_sum: stats.total_bonus_sum, referral_bonus_sum: stats.referral_bonus_sum });
    await poll(() => page.getByText('Today', { exact: true }).count()).toBeGreaterThan(2);
    await poll(() => text(page, 'pickups-repurchase-amount')).toBe(naira(expected.repurchaseAmount));
    expect(await text(page, 'pickups-registration-count')).toBe('2');
    expect(await text(page, 'bonus-referral')).toBe(naira(today.referral_bonus_sum));
    expect(await text(page, 'bonuses-paid')).toBe(naira(today.total_bonus_sum));
    await page.getByRole('button', { name: 'This year', exact: true }).click();
    await poll(() => text(page, 'pickups-upgrade-amount')).toBe(naira(expected.upgradeAmount));
    await fullShot(page, 'admin-dashboard-period-year');
  });

  it('saves the front-page message, its switch and the general message with the seed messages', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    const front = page.getByTestId('front-page-message');
    await poll(() => front.locator('input[name=home_page_message_subject]').inputValue()).toBe('Welcome to Herbal Life Network');

    await front.locator('input[name=home_page_message_subject]').fill('Harmattan promotion');
    await front.locator('textarea[name=home_page_message]').fill('All capsules ship free until 31 December.');
    await front.getByRole('button', { name: 'Update Data' }).click();
    await expectToast(page, 'Setting updated successfully');

    const showSwitch = front.locator('input[name=show_front_page_message]');
    expect(await showSwitch.isChecked()).toBe(false);
    await showSwitch.click();
    await expectToast(page, 'The front page message is now shown');
    await poll(() => showSwitch.isChecked()).toBe(true);

    const general = page.getByTestId('general-message');
    await general.locator('input[name=general_message_subject]').fill('Stockist meeting');
    await general.locator('textarea[name=general_message]').fill('Stockists meet in Lagos on Saturday at 10 am.');
    await general.getByRole('button', { name: 'Update Data' }).click();
    await expectToast(page, 'Setting updated successfully');
    await fullShot(page, 'admin-dashboard-messages-saved');

    // Saved: the public front-page notice reads the new values, and a reload shows them.
    const notice = await app.http.call('GET', '/api/settings/home_page_message_subject');
    expect(notice.body.data).toEqual({ home_page_message_subject: 'Harmattan promotion' });
    const shown = await app.http.call('GET', '/api/settings/show_front_page_message');
    expect(shown.body.data).toEqual({ show_front_page_message: true });
    await page.reload();
    await poll(() => page.getByTestId('general-message').locator('input[name=general_message_subject]').inputValue()).toBe('Stockist meeting');
    expect(await page.getByTestId('front-page-message').locator('textarea[name=home_page_message]').inputValue()).toBe('All capsules ship free until 31 December.');
    expect(await page.getByTestId('front-page-message').locator('input[name=show_front_page_message]').isChecked()).toBe(true);
    // The change is an event naming the admin.
    const events = await app.t.runtime.db.selectFrom('events').select(['data', 'metadata']).where('type', 'like', 'Settings%').orderBy('global_position', 'desc').limit(3).execute();
    expect(events.some((e) => JSON.stringify(e.data).includes('Stockist meeting'))).toBe(true);
  });

  it('fits a phone, and finance staff see the figures without the message forms', async () => {
    const mobile = await app.newPage(phone);
    await signInAdmin(mobile, app.base, demoLogins.admin);
    await poll(() => text(mobile, 'pickups-repurchase-amount')).toBe(naira(expected.repurchaseAmount));
    await poll(() => mobile.getByTestId('payments-chart').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await fullShot(mobile, 'admin-dashboard-phone');
    await screenfuls(mobile, 'admin-dashboard-phone-screen', 4);

    const finance = await app.newPage();
    await signInAdmin(finance, app.base, demoLogins.finance);
    await poll(() => text(finance, 'pickups-upgrade-amount')).toBe(naira(expected.upgradeAmount));
    await poll(() => text(finance, 'bonuses-paid')).not.toBe('');
    expect(await finance.getByTestId('front-page-message').count()).toBe(0);
    expect(await finance.getByTestId('general-message').count()).toBe(0);
    await fullShot(finance, 'admin-dashboard-finance');
  });
});
