import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, confirmInDialog, fullShot, signInAdmin, startMemberApp, expectToast } from './member-app';

/**
 * The back office's catalogue screens against the real api: an admin edits a registration
 * package's price, adds a product with a picture and disables it, adds a company bank account
 * and deletes it; the stockist packages table; finance staff see the tables without the buttons.
 */

let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await app.lastPage()?.screenshot({ path: `/tmp/e2e-shots/admin-catalogue-failure-${Date.now()}.png`, fullPage: true });
});

/** A small solid-colour PNG for the product's picture. */
function colourPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

const row = (page: Page, text: string) => page.locator('tbody tr', { hasText: text });

describe('catalogue screens (admin)', () => {
  let page: Page;

  beforeAll(async () => {
    page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
  });

  it('edits a registration package price', async () => {
    await page.goto(`${app.base}/admin/packages`);
    await expect.poll(() => page.getByText('Official Registration Package Rates').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(6);
    const name = (await page.locator('tbody tr').nth(1).locator('td').nth(1).innerText()).trim();
    await fullShot(page, 'admin-catalogue-packages');

    await row(page, name).getByRole('link', { name: /edit package/i }).click();
    await page.waitForURL(/\/admin\/packages\/2$/);
    const amount = page.locator('input[name=registration_value]');
    await amount.fill('37500');
    await fullShot(page, 'admin-catalogue-package-edit');
    await page.getByRole('button', { name: /save/i }).click();
    await expectToast(page, 'Package updated successfully');
    await page.waitForURL(/\/admin\/packages$/);
    await expect.poll(() => row(page, name).innerText()).toContain('₦37,500.00');
    const event = await app.t.runtime.db.selectFrom('events').select(['type', 'data']).where('stream_id', '=', 'package-2').orderBy('stream_position', 'desc').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ type: 'PackageUpdated', data: { changes: { registration_value_kobo: 3_750_000 } } });
  });

  it('adds a product with an image, then disables it', async () => {
    await page.goto(`${app.base}/admin/products`);
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(0);
    const countBefore = Number(await page.getByTestId('products-count').locator('h5').innerText());
    await page.getByRole('link', { name: /add product/i }).click();
    await page.locator('input[name=name]').fill('Ginger Root Tonic');
    await page.locator('input[name=worth]').fill('6500');
    // The form checks with the server's own schema: its words show beside the field, and nothing is sent.
    await page.locator('textarea[name=description]').fill('x'.repeat(5001));
    await page.getByRole('button', { name: /save/i }).click();
    await expect.poll(() => page.locator('.ra-input-description').innerText()).toContain('The description may not be greater than 5000 characters.');
    expect(page.url()).toMatch(/\/admin\/products\/create$/);
    await fullShot(page, 'admin-catalogue-product-server-error');
    await page.locator('textarea[name=description]').fill('500 ml of fresh ginger and lemon tonic.');
    await page.locator('input[type=file]').setInputFiles({ name: 'ginger.png', mimeType: 'image/png', buffer: colourPng(96, [214, 140, 40]) });
    await expect.poll(() => page.locator('.RaFileInput-removeButton, .previews img').count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-catalogue-product-create');
    await page.getByRole('button', { name: /save/i }).click();
    await expectToast(page, 'Product created successfully');
    await page.waitForURL(/\/admin\/products$/);

    const product = row(page, 'Ginger Root Tonic');
    await expect.poll(() => product.innerText()).toContain('₦6,500.00');
    expect(await product.innerText()).toContain('Enabled');
    await expect.poll(() => product.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    await expect.poll(async () => Number(await page.getByTestId('products-count').locator('h5').innerText())).toBe(countBefore + 1);
    await fullShot(page, 'admin-catalogue-products');

    await confirmInDialog(page, { open: () => product.getByRole('button', { name: /^disable$/i }).click(), text: 'Disable Ginger Root Tonic?', shot: 'admin-catalogue-product-disable-confirm' });
    await expectToast(page, 'Product disabled successfully');
    await expect.poll(() => product.innerText()).toContain('Disabled');
    // Polled: until the confirm dialog has finished closing, MUI hides the page behind it from the accessibility tree (aria-hidden), so no button has a role yet.
    await expect.poll(() => product.getByRole('button', { name: /^enable$/i }).count()).toBe(1);
    await fullShot(page, 'admin-catalogue-product-disabled');
  });

  it('adds a company bank account and deletes it after confirmation', async () => {
    await page.goto(`${app.base}/admin/company-banks`);
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(0);
    await page.getByRole('link', { name: /add bank/i }).click();
    await page.locator('input[name=bank_account_number]').fill('12345');
    const bank = page.getByRole('combobox', { name: /bank/i }).first();
    await bank.fill('Access');
    await page.getByRole('option', { name: 'Access Bank' }).click();
    await page.locator('input[name=bank_account_name]').fill('Herbal Life Network Ltd');
    await page.getByRole('button', { name: /save/i }).click();
    await expect.poll(() => page.getByText('The account number must be 10 digits.').count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-catalogue-bank-create-invalid');
    await page.locator('input[name=bank_account_number]').fill('0690000031');
    await page.getByRole('button', { name: /save/i }).click();
    await expectToast(page, 'Bank created successfully');
    await page.waitForURL(/\/admin\/company-banks$/);
    await expect.poll(() => row(page, '0690000031').innerText()).toContain('Access Bank');
    await fullShot(page, 'admin-catalogue-banks');

    await confirmInDialog(page, { open: () => row(page, '0690000031').getByRole('button', { name: /delete/i }).click(), text: 'Delete the Access Bank account 0690000031?', shot: 'admin-catalogue-bank-delete-confirm' });
    await expectToast(page, 'Bank deleted successfully');
    await expect.poll(() => row(page, '0690000031').count()).toBe(0);
    const removed = await app.t.runtime.db.selectFrom('events').select('type').where('type', '=', 'CompanyBankRemoved').execute();
    expect(removed).toHaveLength(1);
  });

  it('shows the stockist packages with their edit action and the referral bonus card', async () => {
    await page.goto(`${app.base}/admin/stockist-packages`);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3);
    expect(await row(page, 'Master Stockist').innerText()).toContain('₦500,000.00');
    // The edit link shows once the auth provider has said the admin may edit (canAccess resolves after the rows).
    await expect.poll(() => row(page, 'Master Stockist').getByRole('link', { name: /edit package/i }).count()).toBe(1);
    await expect.poll(() => page.locator('input[name=stockist_referral_bonus_percentage]').inputValue()).toBe('5');
    await fullShot(page, 'admin-catalogue-stockist-packages');
  });
});

describe('catalogue screens (finance)', () => {
  it('reads the tables without any button that changes them', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/products`);
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: /add product|edit product/i }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(enable|disable)$/i }).count()).toBe(0);
    await fullShot(page, 'admin-catalogue-finance-products');
    await page.goto(`${app.base}/admin/company-banks`);
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: /delete/i }).count()).toBe(0);
    await page.goto(`${app.base}/admin/packages`);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(6);
    expect(await page.getByRole('link', { name: /edit package/i }).count()).toBe(0);
  });
});
