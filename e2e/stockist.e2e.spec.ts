import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleConsumers } from '../services/test/consumers';
import { tinyPng } from '../services/test/multipart';
import { creditWallet } from '../services/test/wallet';
import { type MemberAppTest, desktop, expectToast, fullShot, phone, screenfuls, shots, signIn, startMemberApp } from './member-app';

/**
 * The stockist capability in Chromium (BUSINESS-RULES.md §5): a member orders a repurchase, pays
 * from the wallet and reveals the order code with their password; a stockist (applied in the
 * browser, approved by an admin, stock bought and approved) looks the code up, approves it, and
 * its record shows the stock and the rebate to the kobo.
 */
let app: MemberAppTest;
const settle = () => settleConsumers(app.t.runtime.db);

beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

async function addToCart(page: Page, product: string, qty: number) {
  await page.getByLabel(`Quantity of ${product}`).fill(String(qty));
  await page.getByRole('button', { name: `Add ${product}` }).click();
}

describe('a repurchase collected at a stockist', () => {
  it('order → wallet payment → order code → stockist approval by code → stock and rebate on the record', async () => {
    const { http } = app;
    const admin = await http.adminToken();
    const signee = await http.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    const stockist = await http.activeMember({ referrer: signee.username, package_id: 2 }, { asParent: true });
    const member = await http.activeMember({ referrer: stockist.username, package_id: 2 });
    await settle();

    // The stockist applies in the browser: the menu offers Become a Stockist.
    const sp = await app.newPage(desktop);
    await signIn(sp, app.base, stockist, /\/user\/dashboard/);
    await sp.getByRole('link', { name: 'Become a Stockist' }).click();
    await sp.getByLabel('Store name').fill('Ikeja Herbs');
    await sp.getByLabel('Store address').fill('12 Allen Avenue, Ikeja');
    await choose(sp, 'State', 'Lagos');
    await sp.getByLabel('Store phone').fill('08031234567');
    await choose(sp, 'Stockist package', /Mini Stockist/);
    await sp.getByLabel('Signee (username or e-mail)').fill(signee.username);
    await sp.getByTestId('stockist-preview').filter({ hasText: 'Ikeja Herbs' }).waitFor();
    await fullShot(sp, 'stockist-apply-desktop');
    await sp.locator('input[type=file]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: tinyPng() });
    await sp.getByRole('button', { name: 'Submit application' }).click();
    await expectToast(sp, /awaits approval/);
    const application = await app.t.runtime.db.selectFrom('stockists').select(['id', 'payment_id']).where('member_id', '=', stockist.id).executeTakeFirstOrThrow();
    expect((await http.call('PATCH', `/api/stockists/${application.payment_id}/approve-registration`, { token: admin })).status).toBe(200);

    // Stock: the registration pick-up, bought in the browser, approved by an admin.
    await sp.reload();
    await sp.getByRole('link', { name: 'Stock Purchase' }).click();
    await choose(sp, 'Pick-up type', 'Registration pick-up');
    await addToCart(sp, 'Moringa Leaf Capsules', 3);
    await addToCart(sp, 'Black Seed Oil 100 ml', 2);
    await sp.getByTestId('cart-total').filter({ hasText: '₦49,500.00' }).waitFor();
    await expect.poll(() => sp.getByTestId('allowance-left').textContent()).toBe('Pick-up amount: ₦80,000.00 · left after this order: ₦30,500.00');
    // Taken once: ₦49,500 of the Mini Stockist's ₦80,000 asks first; Go back sends nothing.
    const partial = sp.getByRole('dialog', { name: 'Use only part of your allowance?' });
    await sp.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect.poll(() => partial.getByTestId('partial-pickup-text').textContent()).toContain('uses ₦49,500.00 of your ₦80,000.00 allowance');
    await partial.getByRole('button', { name: 'Go back' }).click();
    await partial.waitFor({ state: 'hidden' });
    expect(await app.t.runtime.db.selectFrom('stock_purchases').select('id').where('member_id', '=', stockist.id).execute()).toEqual([]);
    // Upgrade pick-up is not offered before a stockist upgrade.
    await sp.getByRole('combobox', { name: 'Pick-up type' }).click();
    expect(await sp.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['Registration pick-up', 'Re-stock']);
    await sp.keyboard.press('Escape');
    await sp.getByRole('listbox').waitFor({ state: 'hidden' });
    await sp.getByRole('button', { name: 'Submit', exact: true }).click();
    await partial.getByRole('button', { name: 'Submit and forfeit ₦30,500.00' }).click();
    await expectToast(sp, /awaits approval/);
    const stockPurchase = await app.t.runtime.db.selectFrom('stock_purchases').select('id').where('member_id', '=', stockist.id).executeTakeFirstOrThrow();
    // Taken: the server says so (GET .../pickup-status), and the page stops offering it, now and after a reload.
    const offered = async () => {
      await sp.getByRole('combobox', { name: 'Pick-up type' }).click();
      const texts = await sp.getByRole('listbox').getByRole('option').allTextContents();
      await sp.keyboard.press('Escape');
      await sp.getByRole('listbox').waitFor({ state: 'hidden' });
      return texts;
    };
    await expect.poll(offered).toEqual(['Re-stock']);
    expect((await http.call('PATCH', `/api/product-purchases/${stockPurchase.id}/approve-stock`, { token: admin })).status).toBe(200);
    await settle();
    await sp.reload();
    await sp.getByTestId('product-row').first().waitFor();
    await expect.poll(offered).toEqual(['Re-stock']);
    // The same on a laptop and a phone, with the menu open.
    for (const [options, name] of [[{ viewport: { width: 1366, height: 800 } }, 'desktop'], [phone, 'phone']] as const) {
      const look = await app.newPage(options);
      await signIn(look, app.base, stockist, /\/user\/dashboard/);
      await look.goto(`${app.base}/user/stock-purchase`);
      await look.getByTestId('product-row').first().waitFor();
      await look.getByRole('combobox', { name: 'Pick-up type' }).click();
      await expect.poll(() => look.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['Re-stock']);
      await look.waitForTimeout(300);
      await look.screenshot({ path: `${shots}/stock-purchase-registration-used-${name}.png` });
      await look.keyboard.press('Escape');
    }

    // The member orders a repurchase and pays from the wallet.
    await creditWallet(app.t.runtime.db, member.id, 5_000_000);
    await settle();
    const mp = await app.newPage(desktop);
    await signIn(mp, app.base, member, /\/user\/dashboard/);
    await mp.getByRole('link', { name: 'Repurchase' }).click();
    await mp.getByTestId('stockist-row').filter({ hasText: 'Ikeja Herbs' }).waitFor();
    // Until the member has a registration pick-up only that type is offered: take it first.
    await choose(mp, 'Order type', 'Registration pick-up');
    await addToCart(mp, 'Soursop Leaf Tea', 1);
    await mp.getByRole('button', { name: 'Submit order' }).click();
    await mp.getByRole('dialog', { name: 'Use only part of your allowance?' }).getByRole('button', { name: /^Submit and forfeit/ }).click();
    await expectToast(mp, 'Order placed successfully');
    await choose(mp, 'Order type', 'Repurchase');
    await addToCart(mp, 'Moringa Leaf Capsules', 2);
    await addToCart(mp, 'Black Seed Oil 100 ml', 1);
    await mp.getByTestId('cart-total').filter({ hasText: '₦29,000.00' }).waitFor();
    await mp.getByRole('button', { name: 'Pay from wallet' }).click();
    await expectToast(mp, 'Payment successful');
    const row = mp.getByTestId('purchase-row').filter({ hasText: '₦29,000.00' });
    await row.waitFor();
    await fullShot(mp, 'repurchase-desktop');
    await row.getByRole('button', { name: 'Order code' }).click();
    await mp.getByLabel('Your password').fill('wrong password');
    await mp.getByRole('button', { name: 'Show code' }).click();
    await expectToast(mp, 'The password is incorrect.');
    await mp.getByLabel('Your password').fill(member.password);
    await mp.getByRole('button', { name: 'Show code' }).click();
    const code = (await mp.getByTestId('order-code').textContent())!.trim();
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    await mp.keyboard.press('Escape');

    // The stockist looks the code up and approves it.
    await sp.getByRole('link', { name: 'Order Processing' }).click();
    await sp.getByLabel('Order code').fill(code);
    await sp.getByRole('button', { name: 'Fetch order' }).click();
    await sp.getByRole('table', { name: 'Order lines' }).filter({ hasText: 'Black Seed Oil 100 ml' }).waitFor();
    await sp.getByText(member.email).waitFor();
    await fullShot(sp, 'stockist-order-desktop');
    await sp.getByRole('button', { name: 'Approve Order' }).click();
    await expectToast(sp, 'Order approved successfully');
    await sp.getByRole('table', { name: 'Processed orders' }).filter({ hasText: '₦29,000.00' }).waitFor();
    await settle();

    // The record: 3 − 2 = 1 Moringa, 2 − 1 = 1 Black Seed Oil; rebate 5% × ₦29,000 = ₦1,450.00.
    await sp.getByRole('link', { name: 'Stockist Record' }).click();
    await expect.poll(() => sp.getByTestId('stat-rebate-wallet').textContent()).toBe('₦1,450.00');
    await expect.poll(() => sp.getByTestId('stat-rebate').textContent()).toBe('5%');
    const stock = sp.getByRole('table', { name: 'Stock record' });
    for (const product of ['Moringa Leaf Capsules', 'Black Seed Oil 100 ml']) {
      await expect.poll(() => stock.getByRole('row').filter({ hasText: product }).locator('td').nth(2).textContent()).toBe('1');
    }
    const quantities = await app.t.runtime.db.selectFrom('stockist_stock').select(['product_id', 'quantity']).where('stockist_id', '=', application.id).orderBy('product_id').execute();
    expect(quantities.map((q) => q.quantity)).toEqual([1, 1]);
    const rebate = await app.t.runtime.db.selectFrom('wallet_entries').select(sql<string>`sum(amount)`.as('kobo')).where('member_id', '=', stockist.id).where('kind', '=', 'stockist_rebate').executeTakeFirstOrThrow();
    expect(Number(rebate.kobo)).toBe(145_000);
    await sp.getByRole('table', { name: 'Rebate earnings' }).filter({ hasText: '₦1,450.00' }).waitFor();
    await fullShot(sp, 'stockist-record-desktop');

    // The member's history names the store; the phone layout keeps the Stockist Portal group.
    await mp.reload();
    await mp.getByTestId('purchase-row').filter({ hasText: 'Ikeja Herbs' }).waitFor();
    // A browser in UTC: the rebate's month is the Lagos month it was earned in, not the month before
    // (the api dates a month by its Lagos midnight, 23:00 UTC on the last day of the month before).
    const phonePage = await app.newPage({ ...phone, timezoneId: 'UTC' });
    await signIn(phonePage, app.base, stockist, /\/user\/dashboard/);
    await phonePage.goto(`${app.base}/user/stockist-record`);
    await phonePage.getByTestId('stat-rebate-wallet').filter({ hasText: '₦1,450.00' }).waitFor();
    const rebates = (await http.call('GET', `/api/stockists/${stockist.id}/rebate-earnings`, { token: stockist.token })).body.data;
    const [year, month] = rebates[0].month.split('-').map(Number);
    const lagosMonth = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, 15)));
    expect(await phonePage.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('UTC');
    await expect.poll(() => phonePage.getByRole('table', { name: 'Rebate earnings' }).locator('tbody tr').first().locator('td').first().textContent()).toBe(lagosMonth);
    // On a phone every table of the record fits the screen: nothing runs off its right edge.
    for (const table of await phonePage.getByRole('table').all()) {
      expect(await table.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth + 1)).toBe(true);
    }
    await screenfuls(phonePage, 'stockist-record-phone', 3);
    await phonePage.goto(`${app.base}/user/repurchase`);
    await phonePage.getByTestId('product-row').first().waitFor();
    // The stockist directory on a phone: the phone number shows whole, under the store's name.
    const details = phonePage.getByTestId('stockist-row').filter({ hasText: 'Ikeja Herbs' }).getByTestId('stockist-row-details');
    await expect.poll(() => details.textContent()).toContain('08031234567');
    const number = (await details.getByRole('link', { name: '08031234567' }).boundingBox())!;
    expect(number.x + number.width).toBeLessThanOrEqual(390);
    await screenfuls(phonePage, 'repurchase-phone', 3);
  }, 180_000);
});

describe('the Become a Stockist form', () => {
  it('an empty form flags each required field and the receipt; a long store name is cut at 200 characters and wraps in the preview', async () => {
    const member = await app.http.activeMember({ referrer: 'herbalhq', package_id: 2 });
    for (const [viewport, name] of [[{ width: 1366, height: 800 }, 'desktop'], [{ width: 390, height: 844 }, 'phone']] as const) {
      const page = await app.newPage(name === 'phone' ? phone : { viewport });
      await signIn(page, app.base, member, /\/user\/dashboard/);
      await page.goto(`${app.base}/user/stockist-registration`);
      await page.getByLabel('Store name').waitFor();
      await page.getByRole('button', { name: 'Submit application' }).click();
      const errors = page.locator('.MuiFormHelperText-root.Mui-error');
      await expect.poll(() => errors.allTextContents()).toEqual([
        'The store name is required.',
        'The store address is required.',
        'The store state is required.',
        'The store phone must be a phone number.',
        'Choose a stockist package.',
        'The signee (username or e-mail) is required.',
        'Please choose an image to upload.',
      ]);
      await fullShot(page, `stockist-apply-empty-${name}`);
      expect(await app.t.runtime.db.selectFrom('stockists').select('id').where('member_id', '=', member.id).execute()).toEqual([]);

      // 3,000 characters without a space: the input keeps 200, and the preview wraps them within the viewport.
      await page.getByLabel('Store name').fill('W'.repeat(3000));
      expect((await page.getByLabel('Store name').inputValue()).length).toBe(200);
      await page.getByText('200 of 200 characters').waitFor();
      await page.getByTestId('stockist-preview').filter({ hasText: 'W'.repeat(200) }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      const preview = await page.getByTestId('stockist-preview').boundingBox();
      expect(preview!.x + preview!.width).toBeLessThanOrEqual(viewport.width);
      await fullShot(page, `stockist-apply-long-name-${name}`);
    }
  }, 180_000);
});
