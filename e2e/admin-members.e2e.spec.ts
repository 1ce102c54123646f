import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { settleConsumers } from '../services/test/consumers';
import { creditWallet } from '../services/test/wallet';
import type { Page } from 'playwright-core';
import { type MemberAppTest, confirmInDialog, fullShot, signInAdmin, startMemberApp, expectToast, screenshotOnFailure } from './member-app';

/**
 * The back office's members list and per-member panels (seed 001 §2.10–2.11) in a real browser:
 * find a member by search, open the panels, change the profile and bank details, toggle
 * bank-editable and 2FA, send a message (it arrives in the mail capture), pay out; an inactive
 * member shows 'This user is Inactive' but can still be messaged; a downline's wallet-paid repurchase
 * appears in their Repurchase History; finance staff only read.
 */
let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => {
  await app?.close();
});
afterEach(screenshotOnFailure(() => app));

const record = async (id: string) => {
  const token = await app.http.adminToken();
  return (await app.http.call('GET', `/api/admin/members/${id}`, { token })).body as unknown as Record<string, unknown>;
};

describe('admin members', () => {
  it('finds a member, opens the panels, edits, toggles, messages and pays out; inactive and finance views', { timeout: 240_000 }, async () => {
    const folake = await app.http.activeMember({ first_name: 'Folake', last_name: 'Balogun' }, { asParent: true });
    const downline = await app.http.activeMember({ first_name: 'Emeka', last_name: 'Obi', referrer: folake.username });
    const pending = await app.http.registeredMember({ first_name: 'Ibrahim', last_name: 'Musa' });
    await creditWallet(app.t.runtime.db, folake.id, 50_000 * 100, app.t.clock.now);
    await settleConsumers(app.t.runtime.db);

    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);

    // ── The list: header, tabs, search ──
    await page.goto(`${app.base}/admin/members`);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('MEMBERS INFORMATION');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(4);
    await fullShot(page, 'admin-members-list');
    await page.getByTestId('members-tab-inactive').click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await expect.poll(() => page.locator('tbody').textContent()).toContain(pending.username);
    await page.getByTestId('members-tab-stockists').click();
    await expect.poll(() => page.getByTestId('members-empty').textContent()).toBe('There are no stockist users');
    await page.getByTestId('members-tab-all').click();
    // One or two characters match the start of a name, username or e-mail, and the list says so (docs/decisions.md 75).
    await page.locator('input[name=q]').fill('fo');
    await expect.poll(() => page.getByTestId('members-short-search').textContent()).toContain('start with them');
    await expect.poll(() => page.locator('tbody').textContent()).toContain(folake.email);
    await fullShot(page, 'admin-members-short-search');
    await page.setViewportSize({ width: 390, height: 844 });
    await fullShot(page, 'admin-members-short-search-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('input[name=q]').fill('folake');
    await expect.poll(() => page.getByTestId('members-short-search').count()).toBe(0);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByText(folake.email).click();
    await page.waitForURL(/\/admin\/members\/[0-9a-f-]+\/show$/);

    // ── Dashboard ──
    await expect.poll(() => page.getByTestId('member-name').textContent()).toBe('Folake Balogun');
    await expect.poll(() => page.getByTestId('claimed-incentives').textContent()).toContain('There are no claimed incentives');
    await expect.poll(() => page.getByTestId('figure-total-earned').textContent()).toMatch(/₦[\d,]+\.\d\d/);
    await fullShot(page, 'admin-members-dashboard');

    // ── Profile: edit names, gender and address ──
    await page.getByRole('tab', { name: 'Profile' }).click();
    await expect.poll(() => page.getByTestId('upline-card').textContent()).toContain('@herbalhq');
    const profileForm = page.getByTestId('profile-edit');
    await profileForm.locator('input[name=first_name]').fill('Folasade');
    await profileForm.getByRole('combobox', { name: /Gender/ }).click();
    await page.getByRole('option', { name: 'Female' }).click();
    await profileForm.locator('textarea[name=address]').fill('7 Allen Avenue, Ikeja, Lagos');
    await profileForm.getByRole('button', { name: 'Update Data' }).click();
    await expectToast(page, 'data updated successfully');
    await expect.poll(() => page.getByTestId('profile-summary').textContent()).toContain('7 Allen Avenue, Ikeja, Lagos');
    await expect.poll(() => page.getByTestId('member-name').textContent()).toBe('Folasade Balogun');
    await fullShot(page, 'admin-members-profile');

    // ── Bank details: save verified details, then forbid and allow the member's own change ──
    await page.getByRole('tab', { name: 'Bank details' }).click();
    await expect.poll(() => page.getByTestId('bank-current').textContent()).toContain('User has not submitted bank details');
    const bankForm = page.getByTestId('bank-edit');
    await bankForm.getByRole('combobox', { name: /Bank/ }).click();
    await bankForm.getByRole('combobox', { name: /Bank/ }).fill('Test Bank');
    await page.getByRole('option').first().click();
    await bankForm.locator('input[name=bank_account_number]').fill('0123456789');
    await expect.poll(() => bankForm.locator('input[name=bank_account_name]').inputValue()).not.toBe('');
    await bankForm.getByRole('button', { name: 'Update Data' }).click();
    await expectToast(page, 'Bank details updated successfully');
    await expect.poll(() => page.getByTestId('bank-current').textContent()).toContain('0123456789');
    const bankSwitch = page.getByTestId('bank-editable-switch').locator('input');
    await expect.poll(() => page.getByTestId('bank-editable-switch').textContent()).toBe('Allow Member to change account details by-self');
    await expect.poll(() => bankSwitch.isChecked()).toBe(true);
    await bankSwitch.click();
    await expectToast(page, 'The member can no longer change their bank details');
    await expect.poll(() => bankSwitch.isChecked()).toBe(false);
    expect((await record(folake.id)).bank_editable).toBe(false);
    await fullShot(page, 'admin-members-bank');
    await bankSwitch.click();
    await expectToast(page, 'The member can now change their bank details');
    await expect.poll(async () => (await record(folake.id)).bank_editable).toBe(true);

    // ── Wallet and genealogy ──
    await page.getByRole('tab', { name: 'Wallet' }).click();
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toMatch(/₦[\d,]+\.\d\d/);
    await fullShot(page, 'admin-members-wallet');
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await expect.poll(() => page.getByTestId('withdrawal-history').textContent()).toContain('There are no withdrawals');
    await page.getByRole('tab', { name: 'Genealogy' }).click();
    await expect.poll(() => page.getByTestId('direct-downlines').textContent()).toContain(`@${downline.username}`);
    await fullShot(page, 'admin-members-genealogy');

    // ── Login details: 2FA switch and a new password ──
    await page.getByRole('tab', { name: 'Login details' }).click();
    const twoFactor = page.getByTestId('two-factor-switch').locator('input');
    await twoFactor.click();
    await expectToast(page, 'Two-factor sign-in is on');
    await expect.poll(async () => (await record(folake.id)).enable_2fa).toBe(true);
    await page.getByTestId('login-password').locator('input[name=password]').fill('a brand new secret');
    await page.getByTestId('login-password').getByRole('button', { name: 'Update Data' }).click();
    await expectToast(page, 'user password has been changed successfully');
    await fullShot(page, 'admin-members-login');

    // ── Send Message: mailed to the member ──
    await page.getByRole('tab', { name: 'Send Message' }).click();
    const messageForm = page.getByTestId('send-message');
    await messageForm.locator('input[name=subject]').fill('Welcome to the leadership class');
    await messageForm.locator('textarea[name=body]').first().fill('Your first session is on Monday at 10am.');
    await fullShot(page, 'admin-members-message');
    await messageForm.getByRole('button', { name: 'Send Message' }).click();
    await expectToast(page, 'Message Sent successfully');
    const mail = await app.t.mail.waitFor((m) => m.to.includes(folake.email) && m.subject.includes('Welcome to the leadership class'));
    expect(mail.text).toContain('Your first session is on Monday at 10am.');

    // ── Make Payout: confirmed, then the server's answer ──
    await page.getByRole('tab', { name: 'Make Payout' }).click();
    await expect.poll(() => page.getByTestId('payout-balance').textContent()).toMatch(/₦[\d,]+\.\d\d/);
    const payout = page.getByTestId('payout');
    await payout.locator('input[name=amount]').fill('1000');
    await payout.locator('input[name=narration]').fill('Leadership award');
    await confirmInDialog(page, { open: () => payout.getByRole('button', { name: 'Make payment' }).click(), text: 'Pay ₦1,000.00 to Folasade Balogun?', button: 'Make payment', shot: 'admin-members-payout-confirm' });
    await expectToast(page, 'Payout successful');
    // The worker's part: the wallet's read table follows the debit.
    await settleConsumers(app.t.runtime.db);
    await page.getByRole('tab', { name: 'Wallet' }).click();
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await expect.poll(() => page.getByTestId('withdrawal-history').textContent()).toContain('₦1,000.00');
    await expect.poll(() => page.getByTestId('withdrawal-history').textContent()).toContain('Payout');
    await expect.poll(() => page.getByTestId('available-balance').textContent()).toContain('₦53,200.00');
    await fullShot(page, 'admin-members-payout');
    await page.getByRole('tab', { name: 'Repurchase History' }).click();
    await expect.poll(() => page.getByTestId('repurchase-history').textContent()).toContain('There are no orders');

    // ── Repurchase History: the downline buys from the wallet; opened from the list's row menu ──
    const products = await app.http.call('GET', '/api/products/active', { token: downline.token });
    const moringa = (products.body.data as Array<{ id: number; name: string; price?: number }>).find((p) => p.name === 'Moringa Leaf Capsules')!;
    await creditWallet(app.t.runtime.db, downline.id, 30_000 * 100, app.t.clock.now);
    const bought = await app.http.call('PATCH', '/api/withdrawals/pay-with-wallet', {
      token: downline.token,
      body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: 17_000, products: [{ id: moringa.id, qty: 2 }], total_price: 17_000, total_points: 4, total_quantity: 2 },
    });
    expect(bought.status, bought.body.message).toBe(200);
    await page.goto(`${app.base}/admin/members`);
    await page.locator('input[name=q]').fill('emeka');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByTestId('member-actions').click();
    await expect.poll(() => page.getByRole('menuitem').allTextContents()).toContain('Repurchase History');
    await page.getByRole('menuitem', { name: 'Repurchase History' }).click();
    await page.waitForURL(/\/show\/repurchases$/);
    const orders = page.getByTestId('repurchase-history');
    await expect.poll(() => orders.locator('tbody tr').count()).toBe(1);
    await expect.poll(() => orders.locator('tbody tr').textContent()).toContain(bought.body.data.purchase_id);
    await expect.poll(() => orders.locator('tbody tr').textContent()).toContain('₦17,000.00');
    await expect.poll(() => orders.locator('tbody tr').textContent()).toContain('Repurchase pick-up');
    await expect.poll(() => orders.locator('tbody tr').textContent()).toContain('Processing');
    await expect.poll(() => orders.locator('tbody tr').textContent()).toContain('N/A');
    await fullShot(page, 'admin-members-repurchases');

    // ── An inactive member: the panels say so; Send Message still works ──
    await page.goto(`${app.base}/admin/members`);
    await page.getByTestId('members-tab-inactive').click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByTestId('member-actions').click();
    await expect.poll(() => page.getByRole('menuitem').allTextContents()).toEqual(['Send Message', 'Make Payout']);
    await page.keyboard.press('Escape');
    await page.getByRole('row').filter({ hasText: pending.username }).click();
    await page.getByRole('tab', { name: 'Repurchase History' }).click();
    await expect.poll(() => page.getByTestId('member-inactive').textContent()).toBe('This user is Inactive');
    await page.goto(`${app.base}/admin/members`);
    await page.getByTestId('members-tab-inactive').click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByTestId('member-actions').click();
    await page.getByRole('menuitem', { name: 'Send Message' }).click();
    await page.waitForURL(/\/show\/message$/);
    await page.getByTestId('send-message').locator('input[name=subject]').fill('Complete your registration');
    await page.getByTestId('send-message').locator('textarea[name=body]').first().fill('Upload your receipt to activate your account.');
    await page.getByTestId('send-message').getByRole('button', { name: 'Send Message' }).click();
    await expectToast(page, 'Message Sent successfully');
    await app.t.mail.waitFor((m) => m.to.includes(pending.email) && m.subject.includes('Complete your registration'));
    await page.getByRole('tab', { name: 'Dashboard' }).click();
    await expect.poll(() => page.getByTestId('member-inactive').textContent()).toBe('This user is Inactive');
    await fullShot(page, 'admin-members-inactive');

    // ── Finance staff: read the panels, no write actions ──
    const financePage = await app.newPage();
    await signInAdmin(financePage, app.base, demoLogins.finance);
    await financePage.goto(`${app.base}/admin/members/${folake.id}/show/bank`);
    await expect.poll(() => financePage.getByTestId('bank-current').textContent()).toContain('0123456789');
    await expect.poll(() => financePage.getByTestId('bank-editable-switch').locator('input').isDisabled()).toBe(true);
    expect(await financePage.getByTestId('bank-edit').count()).toBe(0);
    expect(await financePage.getByRole('tab', { name: 'Send Message' }).count()).toBe(0);
    expect(await financePage.getByRole('tab', { name: 'Make Payout' }).count()).toBe(0);
    await financePage.getByRole('tab', { name: 'Repurchase History' }).click();
    await expect.poll(() => financePage.getByTestId('repurchase-history').textContent()).toContain('There are no orders');
    await fullShot(financePage, 'admin-members-finance');
  });
});
