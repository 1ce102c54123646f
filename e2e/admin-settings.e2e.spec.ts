import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, expectToast, fullShot, shots, signInAdmin, startMemberApp } from './member-app';

/**
 * The back office's settings pages (seed 002 "Bonus Settings" … "Stockist upline bonus settings")
 * against the real api: an admin changes values on several pages and a generation table row, sees
 * the seed's success message, reloads and sees the new value, and sees the server refuse a bad
 * value; finance staff see the same pages without a way to change them.
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
    await app.lastPage()?.screenshot({ path: `${shots}/failed-admin-settings-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

const card = (page: Page, firstField: string) => page.getByTestId(`settings-card-${firstField}`);
const saveIn = (scope: Locator) => scope.getByRole('button', { name: /^save$/i });

/** Opens a settings page through the sidebar's Settings group. */
async function openFromMenu(page: Page, label: RegExp, path: string) {
  const group = page.getByTestId('settings-menu');
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await page.getByRole('menuitem', { name: label }).click();
  await page.waitForURL(new RegExp(`/admin/${path}$`));
}

describe('settings pages', () => {
  it('an admin changes bonus, withdrawal and referral settings, sees them kept after a reload, and sees refusals', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);

    // ---- Bonus Settings: the welcome bonus percentage.
    await openFromMenu(page, /^bonus settings$/i, 'bonus-settings');
    const welcome = card(page, 'welcome_bonus_percentage');
    await expect.poll(() => welcome.locator('input[name=welcome_bonus_percentage]').inputValue()).toBe('2');
    await fullShot(page, 'admin-settings-bonus');
    await welcome.locator('input[name=welcome_bonus_percentage]').fill('4.5');
    await saveIn(welcome).click();
    await expectToast(page, 'Setting updated successfully');
    await page.reload();
    await expect.poll(() => card(page, 'welcome_bonus_percentage').locator('input[name=welcome_bonus_percentage]').inputValue()).toBe('4.5');
    // A client rule: an empty value is refused before anything is sent.
    await card(page, 'placement_bonus_percentage').locator('input[name=placement_bonus_percentage]').fill('');
    await saveIn(card(page, 'placement_bonus_percentage')).click();
    await expect.poll(() => card(page, 'placement_bonus_percentage').getByText('please enter a valid number').count()).toBeGreaterThan(0);

    // ---- Global Profit Settings: the server refuses shares adding up to more than 100 %.
    await openFromMenu(page, /^global profit$/i, 'global-profit-settings');
    const amount = card(page, 'global_profit_value');
    await expect.poll(() => amount.locator('input[name=global_profit_first_percentage]').inputValue()).toBe('40');
    await amount.locator('input[name=global_profit_first_percentage]').fill('45');
    await saveIn(amount).click();
    const refusal = 'The first and second global profit percentages cannot add up to more than 100.';
    await expectToast(page, refusal);
    await expect.poll(() => amount.getByText(refusal).count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-settings-global-profit-refused');
    await amount.locator('input[name=global_profit_second_percentage]').fill('55');
    await saveIn(amount).click();
    await expectToast(page, 'Setting updated successfully');
    await page.reload();
    await expect.poll(() => card(page, 'global_profit_value').locator('input[name=global_profit_second_percentage]').inputValue()).toBe('55');
    await fullShot(page, 'admin-settings-global-profit');

    // ---- Withdrawal settings: the PV rate through its 'Edit unit PV' modal, and the payout day.
    await openFromMenu(page, /^withdrawal settings$/i, 'withdrawal-settings');
    await expect.poll(() => page.getByTestId('unit-point-value').textContent()).toBe('₦1,000.00');
    await expect.poll(() => page.getByTestId('provider-balance').textContent()).toMatch(/₦[\d,]+\.\d\d/);
    await page.getByTestId('provider-balance').getByRole('button', { name: /reload data/i }).click();
    await expect.poll(() => page.getByTestId('provider-balance').textContent()).toMatch(/₦[\d,]+\.\d\d/);
    await fullShot(page, 'admin-settings-withdrawal');
    await page.getByTestId('settings-card-unit_point_value').getByRole('button', { name: /^edit$/i }).click();
    const pvDialog = page.getByRole('dialog');
    await expect.poll(() => pvDialog.getByText('Edit unit PV').count()).toBe(1);
    await pvDialog.locator('input[name=unit_point_value]').fill('1250');
    await fullShot(page, 'admin-settings-withdrawal-pv-dialog');
    await pvDialog.getByRole('button', { name: /update data/i }).click();
    await expectToast(page, 'Setting updated successfully');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // The payout schedule: weekly on Friday (6) becomes monthly on the 15th.
    const payout = card(page, 'withdrawal_type');
    await payout.getByRole('combobox').first().click();
    await page.getByRole('option', { name: /^monthly$/i }).click();
    await payout.getByRole('combobox').nth(1).click();
    await page.getByRole('option', { name: /^day 15 of the month$/i }).click();
    await saveIn(payout).click();
    await expectToast(page, 'Setting updated successfully');
    // The minimum above the maximum is the server's to refuse.
    const minimum = card(page, 'minimum_withdrawal');
    await minimum.locator('input[name=minimum_withdrawal]').fill('900000');
    await saveIn(minimum).click();
    await expectToast(page, 'The minimum withdrawal cannot be more than the maximum withdrawal.');
    await page.reload();
    await expect.poll(() => page.getByTestId('unit-point-value').textContent()).toBe('₦1,250.00');
    await expect.poll(() => card(page, 'withdrawal_type').textContent()).toContain('Day 15 of the month');
    await expect.poll(() => card(page, 'minimum_withdrawal').locator('input[name=minimum_withdrawal]').inputValue()).toBe('2000');
    await fullShot(page, 'admin-settings-withdrawal-saved');

    // ---- Referral bonus settings: one package's row through the 'Referral Bonus Settings' modal.
    await openFromMenu(page, /^referral bonus$/i, 'referral-bonus-settings');
    const bronze = page.getByRole('row').filter({ hasText: 'Bronze' });
    await expect.poll(() => bronze.textContent()).toContain('10%');
    await fullShot(page, 'admin-settings-referral');
    await bronze.getByRole('button', { name: /edit/i }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Referral Bonus Settings').count()).toBe(1);
    await dialog.locator('input[name=generation_1_percentage]').fill('12.5');
    await dialog.locator('input[name=generation_10_percentage]').fill('0');
    await fullShot(page, 'admin-settings-referral-dialog');
    await dialog.getByRole('button', { name: /update data/i }).click();
    await expectToast(page, 'Setting updated successfully');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // Too much in total: the server refuses and the modal stays open with its message.
    await page.getByRole('row').filter({ hasText: 'Bronze' }).getByRole('button', { name: /edit/i }).click();
    await page.getByRole('dialog').locator('input[name=generation_2_percentage]').fill('90');
    await page.getByRole('dialog').getByRole('button', { name: /update data/i }).click();
    const tooMuch = 'The ten generations together cannot be more than 100 percent.';
    await expectToast(page, tooMuch);
    await expect.poll(() => page.getByRole('dialog').getByText(tooMuch).count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-settings-referral-refused');
    await page.getByRole('dialog').getByRole('button', { name: /cancel/i }).click();
    await page.reload();
    const bronzeAfter = page.getByRole('row').filter({ hasText: 'Bronze' });
    await expect.poll(() => bronzeAfter.textContent()).toContain('12.5%');
    // Generation 10 is now 0: a dash.
    await expect.poll(() => bronzeAfter.locator('td').nth(10).textContent()).toBe('–');
    // The matching bonus frequency card below the table.
    const frequency = card(page, 'matching_bonus_frequency');
    await frequency.locator('input[name=matching_bonus_frequency]').fill('14');
    await saveIn(frequency).click();
    await expectToast(page, 'Setting updated successfully');
    await fullShot(page, 'admin-settings-referral-saved');

    // ---- The remaining pages, looked at.
    await openFromMenu(page, /^profit pool$/i, 'profit-pool-settings');
    await expect.poll(() => card(page, 'profit_pool_duration').locator('input[name=profit_pool_duration]').inputValue()).toBe('12');
    await fullShot(page, 'admin-settings-profit-pool');
    await openFromMenu(page, /^company details$/i, 'company-details');
    const company = card(page, 'company_phone');
    await expect.poll(() => company.locator('input[name=company_email]').inputValue()).toBe('support@herbal-portal.test');
    await company.locator('textarea[name=company_address]').fill('14 Herbal Avenue, Ikeja, Lagos');
    await saveIn(company).click();
    await expectToast(page, 'Setting updated successfully');
    await fullShot(page, 'admin-settings-company');
    await openFromMenu(page, /^upgrade bonus$/i, 'upgrade-settings');
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(6);
    await fullShot(page, 'admin-settings-upgrade');
    await openFromMenu(page, /^unilevel bonus$/i, 'unilevel-settings');
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(6);
    await fullShot(page, 'admin-settings-unilevel');
    await openFromMenu(page, /^stockist upline bonus$/i, 'stockist-upline-bonus-setting');
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(6);
    // On a loaded machine the first click can land before the list wires its buttons: click again
    // while no dialog is open, as confirmInDialog does.
    const editGold = () => page.getByRole('row').filter({ hasText: 'Gold' }).getByRole('button', { name: /edit/i }).click({ timeout: 5_000 }).catch(() => {});
    await editGold();
    await expect
      .poll(async () => {
        const shown = await page.getByRole('dialog').getByText('Stockist Upline Bonus Settings').count();
        if (shown === 0 && (await page.getByRole('dialog').count()) === 0) await editGold();
        return shown;
      }, { timeout: 30_000 })
      .toBe(1);
    await fullShot(page, 'admin-settings-stockist-upline-dialog');
    await page.getByRole('dialog').getByRole('button', { name: /cancel/i }).click();
    await fullShot(page, 'admin-settings-stockist-upline');
  }, 180_000);

  it('finance staff see the settings but cannot change them', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await openFromMenu(page, /^withdrawal settings$/i, 'withdrawal-settings');
    await expect.poll(() => page.getByText('only an administrator can change them').count()).toBe(1);
    await expect.poll(() => page.getByTestId('unit-point-value').textContent()).toMatch(/^₦/);
    expect(await page.getByRole('button', { name: /^save$/i }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^edit$/i }).count()).toBe(0);
    expect(await page.locator('input[name=minimum_withdrawal]').getAttribute('readonly')).not.toBeNull();
    await fullShot(page, 'admin-settings-finance-withdrawal');
    await openFromMenu(page, /^referral bonus$/i, 'referral-bonus-settings');
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(6);
    expect(await page.getByRole('button', { name: /edit/i }).count()).toBe(0);
    await fullShot(page, 'admin-settings-finance-referral');
  }, 150_000);
});
