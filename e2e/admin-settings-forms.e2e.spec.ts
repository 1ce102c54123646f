import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { companyBankCreateBody, incentiveCreateFields, packageCreateBody, productCreateFields, stockistPackageCreateBody } from '../services/src/contracts/catalogue';
import { settingsUpdateBody } from '../services/src/contracts/settings';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, fullShot, phone, shots, signInAdmin, startMemberApp } from './member-app';

/**
 * Every settings and catalogue form of the back office checks what is typed with the server's own
 * zod schema (issue 11 item 5): a bad value is refused at its field, in the words the API would
 * answer (the test asks the same schema for them), the page stays, no browser step message shows,
 * and nothing is saved. The company's default placement preference is set from the settings.
 */
let app: MemberAppTest;
beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-admin-settings-forms-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

/** The server schema's message for `field` in `body`. */
function serverMessage(schema: { safeParse: (body: unknown) => { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } } }, body: Record<string, unknown>, field: string): string {
  const parsed = schema.safeParse(body);
  const issue = parsed.error?.issues.find((i) => i.path[0] === field);
  if (!issue) throw new Error(`the server schema takes ${field} = ${String(body[field])}`);
  return issue.message;
}

const settingsNow = async () => (await app.http.call('GET', '/api/settings/all', { token: await app.http.adminToken() })).body.data as Record<string, unknown>;

/**
 * Forms the browser would check itself on submit (its "two nearest valid values" bubble for a
 * number off its step): every form leaves checking to the schema (novalidate).
 */
const browserInvalidInputs = (page: Page) => page.evaluate(() => Array.from(document.querySelectorAll('form')).filter((form) => !form.noValidate).length);

/** [settings page, the card's first field, the field typed into, the bad value] */
const settingsCases: Array<[string, string, string, string]> = [
  ['bonus-settings', 'equillibrum_bonus', 'equillibrum_bonus', '150'],
  ['bonus-settings', 'loyalty_bonus_percentage', 'loyalty_bonus_percentage', '-5'],
  ['bonus-settings', 'welcome_bonus_percentage', 'welcome_bonus_percentage', '101'],
  ['bonus-settings', 'placement_bonus_percentage', 'placement_bonus_percentage', '-1'],
  ['global-profit-settings', 'global_profit_value', 'global_profit_first_percentage', '150'],
  ['global-profit-settings', 'global_profit_value', 'global_profit_value', '-20'],
  ['profit-pool-settings', 'profit_pool_percentage', 'profit_pool_percentage', '-5'],
  ['withdrawal-settings', 'minimum_withdrawal', 'minimum_withdrawal', '-10'],
  ['withdrawal-settings', 'maximum_withdrawal', 'maximum_withdrawal', '-1'],
  ['withdrawal-settings', 'maximum_withdrawal', 'maximum_withdrawal', '500000.005'],
  ['withdrawal-settings', 'withdrawal_charge_type', 'withdrawal_charge_cap', '99999999999'],
  ['withdrawal-settings', 'withdrawal_charge_type', 'charge', '-3'],
  ['company-details', 'company_phone', 'company_email', 'not-an-email'],
  ['company-details', 'company_phone', 'company_phone', 'call us'],
];

describe('back-office settings and catalogue forms', () => {
  it('refuses a bad value in every settings card at its field with the server schema’s words, saving nothing', { timeout: 240_000 }, async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    const before = await settingsNow();
    for (const [path, cardField, field, bad] of settingsCases) {
      await page.goto(`${app.base}/admin/${path}`);
      const card = page.getByTestId(`settings-card-${cardField}`);
      const input = card.locator(`input[name=${field}], textarea[name=${field}]`).first();
      await input.waitFor({ timeout: 15_000 });
      await input.fill(bad);
      const typed = (await input.getAttribute('type')) === 'number' ? Number(bad) : bad;
      const expected = serverMessage(settingsUpdateBody, { [field]: typed }, field);
      await card.getByRole('button', { name: /save/i }).click();
      await expect.poll(() => card.locator('.MuiFormHelperText-root.Mui-error').filter({ hasText: expected }).count(), { timeout: 10_000, message: `${path} ${field}` }).toBe(1);
      expect(await page.getByText('Something went wrong').count()).toBe(0);
      expect(await browserInvalidInputs(page)).toBe(0);
      await fullShot(page, `admin-settings-refused-${field}`);
    }
    expect(await settingsNow()).toEqual(before);
  });

  it('refuses bad catalogue values at the field: registration package and stockist package', { timeout: 120_000 }, async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    const packagesBefore = (await app.http.call('GET', '/api/packages/all')).body.data;

    await page.goto(`${app.base}/admin/packages/create`);
    await page.locator('input[name=name]').waitFor({ timeout: 15_000 });
    await page.locator('input[name=name]').fill('Diamond');
    await page.locator('input[name=point_value]').fill('-4');
    await page.locator('input[name=registration_value]').fill('25000.505');
    await page.getByRole('button', { name: /save/i }).click();
    const packageBody = { name: 'Diamond', point_value: -4, registration_value: 25000.505 };
    for (const field of ['point_value', 'registration_value']) {
      await expect.poll(() => page.getByText(serverMessage(packageCreateBody, packageBody, field)).count(), { timeout: 10_000, message: field }).toBeGreaterThan(0);
    }
    expect(await browserInvalidInputs(page)).toBe(0);
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    await fullShot(page, 'admin-package-refused');
    expect((await app.http.call('GET', '/api/packages/all')).body.data).toEqual(packagesBefore);

    await page.goto(`${app.base}/admin/stockist-packages`);
    await page.getByRole('link', { name: /edit/i }).first().click();
    const rebate = page.locator('input[name=sales_bonus_percentage]');
    await rebate.waitFor({ timeout: 15_000 });
    await rebate.fill('120');
    await page.getByRole('button', { name: /save/i }).click();
    const expected = serverMessage(stockistPackageCreateBody, { name: 'x', registration_value: 1, sales_bonus_percentage: 120, pickup_amount: 0 }, 'sales_bonus_percentage');
    await expect.poll(() => page.getByText(expected).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await fullShot(page, 'admin-stockist-package-refused');
  });

  it('refuses bad catalogue values at the field: company bank, product and incentive, at desktop and phone widths', { timeout: 180_000 }, async () => {
    const token = await app.http.adminToken();
    const list = async (path: string) => (await app.http.call('GET', path, { token })).body;
    const before = { banks: await list('/api/admin/company-banks'), products: await list('/api/admin/products'), incentives: await list('/api/admin/incentives') };

    /** Fills `values`, saves, and waits for each field's server message at that field; nothing else on the page changes. */
    const refused = async (page: Page, path: string, values: Record<string, string>, body: Record<string, unknown>, schema: Parameters<typeof serverMessage>[0], fields: string[], shot: string) => {
      await page.goto(`${app.base}/admin/${path}`);
      await page.locator(`input[name=${Object.keys(values)[0]}]`).waitFor({ timeout: 15_000 });
      for (const [name, value] of Object.entries(values)) await page.locator(`input[name=${name}], textarea[name=${name}]`).first().fill(value);
      await page.getByRole('button', { name: /save/i }).click();
      // Saving focuses the first refused field; a bank's list would open over the messages.
      await page.keyboard.press('Escape');
      for (const field of fields) {
        const expected = serverMessage(schema, body, field);
        // The message sits under its own input (react-admin's wrapper of that field).
        const helper = page.locator(`.ra-input-${field} .Mui-error`).filter({ hasText: expected });
        await expect.poll(() => helper.count(), { timeout: 10_000, message: `${path} ${field}` }).toBeGreaterThan(0);
      }
      expect(await browserInvalidInputs(page)).toBe(0);
      expect(await page.getByText('Something went wrong').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
      await fullShot(page, shot);
    };

    for (const [options, width] of [[undefined, 'desktop'], [phone, 'phone']] as const) {
      const page = await app.newPage(options);
      await signInAdmin(page, app.base, demoLogins.admin);
      await refused(page, 'company-banks/create', { bank_account_name: '   ', bank_account_number: '12345' }, { bank_name: '', bank_account_name: '   ', bank_account_number: '12345' }, companyBankCreateBody, ['bank_name', 'bank_account_name', 'bank_account_number'], `admin-bank-refused-${width}`);
      await refused(page, 'products/create', { name: 'Moringa tea', worth: '4500.555' }, { name: 'Moringa tea', worth: 4500.555 }, productCreateFields, ['worth'], `admin-product-refused-${width}`);
      // A ₦0 product was 'created successfully' and then handed out of pick-up allowances for nothing.
      expect(serverMessage(productCreateFields, { name: 'Free tea', worth: 0 }, 'worth')).toBe('The price must be at least ₦1.');
      await refused(page, 'products/create', { name: 'Free tea', worth: '0' }, { name: 'Free tea', worth: 0 }, productCreateFields, ['worth'], `admin-product-free-refused-${width}`);
      await refused(page, 'products/1', { worth: '0' }, { name: 'x', worth: 0 }, productCreateFields, ['worth'], `admin-product-edit-free-refused-${width}`);
      await refused(page, 'incentives/create', { incentive: '', worth: '-300' }, { incentive: '', worth: -300 }, incentiveCreateFields, ['rank_id', 'incentive', 'worth'], `admin-incentive-refused-${width}`);
    }
    expect({ banks: await list('/api/admin/company-banks'), products: await list('/api/admin/products'), incentives: await list('/api/admin/incentives') }).toEqual(before);
  });

  it('sets the company default placement preference from the company settings, at desktop and phone widths', { timeout: 120_000 }, async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.goto(`${app.base}/admin/company-details`);
    const card = page.getByTestId('settings-card-default_placement_preference');
    await card.getByRole('combobox').click({ timeout: 15_000 });
    await page.getByRole('option', { name: 'Extreme right' }).click();
    await card.getByRole('button', { name: /save/i }).click();
    await expect.poll(async () => (await settingsNow()).default_placement_preference, { timeout: 10_000 }).toBe('extreme_right');
    await fullShot(page, 'admin-company-details-desktop');

    const small = await app.newPage(phone);
    await signInAdmin(small, app.base, demoLogins.admin);
    await small.goto(`${app.base}/admin/company-details`);
    await expect.poll(() => small.getByTestId('settings-card-default_placement_preference').textContent(), { timeout: 15_000 }).toContain('Extreme right');
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await fullShot(small, 'admin-company-details-phone');
  });
});
