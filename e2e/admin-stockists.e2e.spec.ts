import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleConsumers } from '../services/test/consumers';
import { tinyPng } from '../services/test/multipart';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, desktop, expectToast, fullShot, phone, screenfuls, signIn, signInAdmin, startMemberApp } from './member-app';

/**
 * Back office, Stockist History (seed 002 "Transactions screen" tab 4): an admin approves a
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
    await fin.goto(`${app.base}/admin/stockist-history`);
    const finRow = fin.getByTestId('Stockist Registrations-row').filter({ hasText: 'Kano Roots' });
    await finRow.waitFor();
    expect(await finRow.getByRole('button', { name: 'Approve Stockist', exact: true }).count()).toBe(0);

    const page = await app.newPage(desktop);
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.getByRole('menuitem', { name: 'Stockist History' }).click();
    await page.waitForURL(/\/admin\/stockist-history/);
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
    await row.getByRole('button', { name: 'Approve Stockist', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
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
    const phonePage = await app.newPage(phone);
    await signInAdmin(phonePage, app.base, demoLogins.admin);
    await phonePage.goto(`${app.base}/admin/stockist-history`);
    await phonePage.getByTestId('stat-stockists').filter({ hasText: '1' }).waitFor();
    await screenfuls(phonePage, 'admin-stockist-history-phone', 2);
  }, 180_000);
});
