import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleConsumers } from '../services/test/consumers';
import { tinyPng } from '../services/test/multipart';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, confirmInDialog, desktop, expectToast, fullShot, phone, screenfuls, signIn, signInAdmin, startMemberApp } from './member-app';

/**
 * Back office, the transactions screen's Stockist History tab (seed 002 "Transactions screen" tab 4): an admin approves a
 * stockist application through its confirmation, and the signee's wallet shows the signee bonus
 * with its explanation. Finance staff see the lists without the decision buttons.
 */
let app: MemberAppTest;
beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());

describe('Stockist History', () => {
  it('approves an application from the back office; the signee is paid 5% of ₦100,000 = ₦5,000, explained on their wallet', async () => {
    const { http } = app;
    const signee = await http.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    const applicant = await http.activeMember({ referrer: signee.username, package_id: 2 });
    const applied = await http.upload('POST', '/api/stockists/create', {
      token: applicant.token,
      fields: { store_name: 'Kano Roots', store_address: '4 Zoo Road', store_state: 'Kano', store_phone: '08031234567', package_id: 1, referrer: signee.email },
      files: { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } },
    });
    expect(applied.status, applied.body.message).toBe(200);

    // Finance staff read the list, without decisions.
    const fin = await app.newPage(desktop);
    await signInAdmin(fin, app.base, demoLogins.finance);
    // The old address leads to the tab.
    await fin.goto(`${app.base}/admin/stockist-history`);
    await fin.waitForURL(/\/admin\/transactions\/stockists$/);
    const finRow = fin.getByTestId('Stockist Registrations-row').filter({ hasText: 'Kano Roots' });
    await finRow.waitFor();
    expect(await finRow.getByRole('button', { name: 'Approve Stockist', exact: true }).count()).toBe(0);

    const page = await app.newPage(desktop);
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.getByRole('menuitem', { name: 'Transactions' }).click();
    await page.waitForURL(/\/admin\/transactions\/withdrawals$/);
    await page.getByRole('tab', { name: 'Stockist History' }).click();
    await page.waitForURL(/\/admin\/transactions\/stockists$/);
    const row = page.getByTestId('Stockist Registrations-row').filter({ hasText: 'Kano Roots' });
    await row.waitFor();
    expect(await row.textContent()).toContain(applicant.username);
    await page.getByText('There are no pending stockists Upgrades').waitFor();
    await page.getByText('There are no stockist orders').waitFor();
    // The POP modal shows the receipt.
    await row.getByRole('button', { name: 'POP' }).click();
    await expect.poll(() => page.getByRole('img', { name: 'Proof of payment' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.getByRole('button', { name: 'Close' }).click();
    await fullShot(page, 'admin-stockist-history');
    await confirmInDialog(page, { open: () => row.getByRole('button', { name: 'Approve Stockist', exact: true }).click(), text: /./ });
    await expectToast(page, 'Stockist approved successfully');
    await expect.poll(() => row.textContent()).toContain('approved');
    await expect.poll(() => page.getByTestId('stat-stockists').textContent()).toBe('1');
    await settleConsumers(app.t.runtime.db);

    // The signee's wallet: the bonus with its explanation.
    const sp = await app.newPage(desktop);
    await signIn(sp, app.base, signee, /\/user\/dashboard/);
    await sp.getByRole('link', { name: 'Wallet' }).click();
    const bonuses = sp.getByRole('table', { name: 'Bonuses' });
    const explanation = `Signee bonus for ${applicant.username}'s stockist registration (package of ₦100,000): 5% of ₦100,000.`;
    await bonuses.getByTestId('bonus-explanation').filter({ hasText: explanation }).waitFor();
    await fullShot(sp, 'signee-wallet');

    // The other lists: the new stockist asks for an upgrade and buys stock; a member's pick-up waits at the head office.
    const stockistRow = await app.t.runtime.db.selectFrom('stockists').select('id').where('member_id', '=', applicant.id).executeTakeFirstOrThrow();
    const upgrade = await http.upload('POST', `/api/stockists/${stockistRow.id}/upgrade`, { token: applicant.token, fields: { stockist_package_id: 2 }, files: { payment_receipt: { bytes: tinyPng(), filename: 'upgrade.png', type: 'image/png' } } });
    expect(upgrade.status, upgrade.body.message).toBe(200);
    const moringa = await app.t.runtime.db.selectFrom('products').select('id').where('name', '=', 'Moringa Leaf Capsules').executeTakeFirstOrThrow();
    const stock = await http.upload('POST', `/api/product-purchases/stockist/${applicant.id}`, { token: applicant.token, fields: { pickup_type: 'registration_pickup', products: JSON.stringify([{ id: moringa.id, qty: 3 }]) }, files: { payment_receipt: { bytes: tinyPng(), filename: 'stock.png', type: 'image/png' } } });
    expect(stock.status, stock.body.message).toBe(200);
    const pickup = await http.call('POST', `/api/product-purchases/user/${signee.id}`, { token: signee.token, body: { pickup_type: 'registration_pickup', products: [{ id: moringa.id, qty: 1 }] } });
    expect(pickup.status, pickup.body.message).toBe(200);
    await page.reload();
    const upgradeRow = page.getByTestId('Pending Stockist Upgrades-row').filter({ hasText: 'Kano Roots' });
    await expect.poll(() => upgradeRow.textContent()).toContain('Mini Stockist → Standard Stockist');
    const purchaseRow = page.getByTestId('Stockist Purchases-row').filter({ hasText: 'Kano Roots' });
    await expect.poll(() => purchaseRow.textContent()).toContain('₦25,500.00');
    const claimRow = page.getByTestId('Product Claims-row').filter({ hasText: signee.username });
    await claimRow.waitFor();
    // At 1280 px the tab fits beside the menu and the side tabs: no list scrolls sideways.
    const overflowing = await page.evaluate(() => [document.documentElement, ...Array.from(document.querySelectorAll('.MuiTableContainer-root'))].filter((el) => el.scrollWidth > el.clientWidth + 1).length);
    expect(overflowing, 'elements scrolling sideways at 1280 px').toBe(0);
    await fullShot(page, 'admin-stockist-history-lists');
    await purchaseRow.getByRole('button', { name: 'View Products' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Products' }).textContent()).toContain('Moringa Leaf Capsules× 3');
    await page.getByRole('button', { name: 'Close' }).click();
    await confirmInDialog(page, { open: () => upgradeRow.getByRole('button', { name: 'Approve Upgrade', exact: true }).click(), text: /./ });
    await expectToast(page, 'Stockist upgrade approved successfully');
    await confirmInDialog(page, { open: () => purchaseRow.getByRole('button', { name: 'Approve Purchase', exact: true }).click(), text: /./ });
    await expectToast(page, 'Stock purchase approved successfully');
    await expect.poll(() => purchaseRow.textContent()).toContain('approved');
    await expect.poll(() => page.getByTestId('stat-purchases').textContent()).toBe('₦25,500.00');
    await confirmInDialog(page, { open: () => claimRow.getByRole('button', { name: 'Approve Claim', exact: true }).click(), text: /./ });
    await expectToast(page, 'Product approved successfully');
    await page.getByText('There are no orders').waitFor();
    // The approved stockist's two modals: its purchases so far and its upgrade.
    await row.getByRole('button', { name: 'Sales stats' }).click();
    await expect.poll(() => page.getByTestId('sales-total-purchases').textContent()).toBe('₦25,500.00');
    await page.getByRole('button', { name: 'Close' }).click();
    await row.getByRole('button', { name: 'Upgrade history' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Upgrade history' }).textContent()).toContain('Standard Stockist');
    await page.getByRole('button', { name: 'Close' }).click();
    // The other tabs of the transactions screen show their lists, Registration History its three.
    await page.getByRole('tab', { name: 'Withdrawal History' }).click();
    await page.getByText('There are no withdrawals').waitFor();
    await page.getByRole('tab', { name: 'Registration History' }).click();
    await page.getByTestId('registration-tab-payments').click();
    await page.waitForURL(/\/admin\/transactions\/registrations\/payments/);
    await page.getByRole('tab', { name: 'Product Sales History' }).click();
    await page.waitForURL(/\/admin\/transactions\/product-sales/);
    await fullShot(page, 'admin-transactions-product-sales');
    const phonePage = await app.newPage(phone);
    await signInAdmin(phonePage, app.base, demoLogins.admin);
    await phonePage.goto(`${app.base}/admin/transactions/stockists`);
    await phonePage.getByTestId('stat-stockists').filter({ hasText: '1' }).waitFor();
    await phonePage.getByTestId('Stockist Registrations-row').filter({ hasText: 'Kano Roots' }).waitFor();
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the phone page does not scroll sideways').toBe(true);
    await screenfuls(phonePage, 'admin-stockist-history-phone', 4);
  }, 180_000);
});
