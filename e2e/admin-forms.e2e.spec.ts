import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, fullShot, shots, signInAdmin, startMemberApp } from './member-app';

/**
 * Forms that cannot crash or save nonsense (issue 11 item 5): values outside the rules are shown
 * at the field with the server's own words, the page stays, and nothing is saved.
 */
let app: MemberAppTest;
beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-admin-forms-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

describe('back-office forms', () => {
  it('refuses 150 and -5 in a referral generation at the field, without replacing the page', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.goto(`${app.base}/admin/referral-bonus-settings`);
    const bronze = page.getByRole('row').filter({ hasText: 'Bronze' });
    await expect.poll(() => bronze.textContent(), { timeout: 10_000 }).toContain('10%');
    const before = await bronze.textContent();
    for (const bad of ['150', '-5']) {
      await bronze.getByRole('button', { name: /edit/i }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('input[name=generation_1_percentage]').fill(bad);
      await dialog.getByRole('button', { name: /update data/i }).click();
      await expect.poll(() => dialog.getByText('generation_1_percentage must be between 0 and 100').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await page.getByText('Something went wrong').count()).toBe(0);
      await fullShot(page, `admin-referral-generation-${bad}`);
      await dialog.getByRole('button', { name: /cancel/i }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    }
    expect(await bronze.textContent()).toBe(before);
  });

  it('refuses a general message without a subject at the field and keeps the saved one', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    const general = page.getByTestId('general-message');
    await general.locator('textarea[name=general_message]').waitFor();
    await general.locator('input[name=general_message_subject]').fill('');
    await general.locator('textarea[name=general_message]').fill('Stockists meet in Lagos on Saturday.');
    await general.getByRole('button', { name: 'Update Data' }).click();
    await expect.poll(() => general.getByText('The general message needs a subject.').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const stored = await app.http.call('GET', '/api/settings/all', { token: await app.http.adminToken() });
    expect(stored.body.data.general_message).not.toBe('Stockists meet in Lagos on Saturday.');
    await fullShot(page, 'admin-general-message-no-subject');
  });

  it('takes a large payout amount in kobo without the browser\'s step message, and refuses three decimals at the field', async () => {
    const member = await app.http.activeMember();
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.goto(`${app.base}/admin/members/${member.id}/show/payout`);
    const payout = page.getByTestId('payout');
    await payout.locator('input[name=amount]').fill('1234567.891');
    await payout.locator('input[name=narration]').fill('Leadership award');
    await payout.getByRole('button', { name: 'Make payment' }).click();
    await expect.poll(() => payout.getByText('The amount can have at most two decimals (kobo).').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await payout.locator('input[name=amount]').evaluate((input) => (input as HTMLInputElement).validity.valid)).toBe(true);
    await payout.locator('input[name=amount]').fill('1234567.89');
    await payout.getByRole('button', { name: 'Make payment' }).click();
    await expect.poll(() => page.getByRole('dialog').textContent(), { timeout: 10_000 }).toContain('Pay ₦1,234,567.89 to');
    await fullShot(page, 'admin-payout-large-amount');
    await page.getByRole('dialog').getByRole('button', { name: /cancel/i }).click();
  });
});
