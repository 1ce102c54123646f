import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleConsumers } from '../services/test/consumers';
import { creditWallet } from '../services/test/wallet';
import type { Page } from 'playwright-core';
import { type MemberAppTest, desktop, expectToast, fullShot, phone, receiptImage, screenfuls, shots, signIn, startMemberApp } from './member-app';

/**
 * The member's product claims (seed 000 §2.11 and §3 "Product claim"), in Chromium: every line of
 * what they ordered, uncollected, collected or declined, paged by the server and filtered by
 * status, reached from the menu's Repurchase screen.
 */
let app: MemberAppTest;
beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());

describe('product claims', () => {
  it('lists the member\'s claim lines: 13 lines over two pages; Uncollected, Collected and Declined filter them; an uncollected one reveals its order code', async () => {
    const { http } = app;
    const db = app.t.runtime.db;
    const admin = await http.adminToken();
    const member = await http.activeMember({ referrer: 'herbalhq', package_id: 2 });
    const products = await db.selectFrom('products').select(['id', 'name', 'worth']).where('is_active', '=', true).orderBy('id').limit(4).execute();
    const soursop = await db.selectFrom('products').select('id').where('name', '=', 'Soursop Leaf Tea').executeTakeFirstOrThrow();

    // The registration pick-up (1 line), declined by an admin: the allowance is given back.
    const pickup = await http.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: soursop.id, qty: 1 }] } });
    expect(pickup.status, pickup.body.message).toBe(200);
    expect((await http.call('PUT', `/api/product-claims/${pickup.body.data.purchase_id}/decline`, { token: admin, body: { reason: 'Out of stock at the head office.' } })).status).toBe(200);
    // Three repurchases of four lines each, paid from the wallet; the first handed over at the head office.
    const totalNaira = products.reduce((sum, p) => sum + p.worth, 0) / 100;
    await creditWallet(db, member.id, (1 + 2 + 3) * totalNaira * 100);
    await settleConsumers(db);
    const orders: string[] = [];
    for (let i = 0; i < 3; i++) {
      const paid = await http.call('PATCH', '/api/withdrawals/pay-with-wallet', {
        token: member.token,
        body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: totalNaira * (i + 1), products: products.map((p) => ({ id: p.id, qty: i + 1 })) },
      });
      expect(paid.status, paid.body.message).toBe(200);
      orders.push(paid.body.data.purchase_id);
    }
    expect((await http.call('PUT', `/api/product-claims/${orders[0]}/approve`, { token: admin })).status).toBe(200);

    const page = await app.newPage(desktop);
    await signIn(page, app.base, member, /\/user\/dashboard/);
    await page.getByRole('link', { name: 'Repurchase' }).click();
    await page.getByRole('tab', { name: 'Product claims' }).click();
    await page.waitForURL(/records=claims/);
    const claims = page.getByRole('table', { name: 'Product claims' });
    const rows = claims.getByTestId('claim-row');
    await expect.poll(() => rows.count()).toBe(10);
    await fullShot(page, 'product-claims-desktop');
    // Page 2: the other 3 of 13 lines, the oldest (the declined pick-up) last.
    await page.getByRole('navigation', { name: 'Product claim pages' }).getByRole('button', { name: 'Go to page 2' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    await expect.poll(() => rows.last().textContent()).toContain('Soursop Leaf Tea');
    await expect.poll(() => rows.last().getByTestId('claim-status').textContent()).toBe('declined');

    // Filters: 8 uncollected (the two repurchases still waiting), 4 collected, 1 declined.
    const filter = page.getByRole('group', { name: 'Claim status' });
    await filter.getByRole('button', { name: 'Uncollected' }).click();
    await expect.poll(() => rows.count()).toBe(8);
    expect(await rows.getByTestId('claim-status').allTextContents()).toEqual(Array(8).fill('uncollected'));
    await filter.getByRole('button', { name: 'Collected', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(4);
    expect(await rows.getByTestId('claim-status').allTextContents()).toEqual(Array(4).fill('collected'));
    await filter.getByRole('button', { name: 'Declined' }).click();
    await expect.poll(() => rows.count()).toBe(1);

    // An uncollected line opens the order code modal of its order.
    await filter.getByRole('button', { name: 'Uncollected' }).click();
    await expect.poll(() => rows.count()).toBe(8);
    await rows.first().getByRole('button', { name: 'Order code' }).click();
    await page.getByLabel('Your password').fill(member.password);
    await page.getByRole('button', { name: 'Show code' }).click();
    await expect.poll(async () => (await page.getByTestId('order-code').textContent())?.trim()).toMatch(/^[A-Z2-9]{8}$/);
    const shown = (await page.getByTestId('order-code').textContent())!.trim();
    const newest = await db.selectFrom('product_purchases').select('order_code').where('id', '=', orders[2]!).executeTakeFirstOrThrow();
    expect(shown).toBe(newest.order_code);
    await page.keyboard.press('Escape');

    // The address keeps the tab: a reload lands on the claims again; on a phone the rows keep product, quantity and status.
    const phonePage = await app.newPage(phone);
    await signIn(phonePage, app.base, member, /\/user\/dashboard/);
    await phonePage.goto(`${app.base}/user/repurchase?records=claims`);
    await phonePage.getByRole('table', { name: 'Product claims' }).getByTestId('claim-row').first().waitFor();
    await phonePage.locator('#purchase-records').scrollIntoViewIfNeeded();
    expect(await phonePage.evaluate(() => [document.documentElement, ...Array.from(document.querySelectorAll('#purchase-records .MuiTableContainer-root'))].every((el) => el.scrollWidth <= el.clientWidth + 1)), 'nothing scrolls sideways on a phone').toBe(true);
    await screenfuls(phonePage, 'product-claims-phone', 6);
  }, 180_000);

  it('the repurchase screen\'s three modals: a card payment in its embedded page, the order\'s products, its code behind the password', async () => {
    const { http } = app;
    const member = await http.activeMember({ referrer: 'herbalhq', package_id: 2 });
    const soursop = await app.t.runtime.db.selectFrom('products').select('id').where('name', '=', 'Soursop Leaf Tea').executeTakeFirstOrThrow();
    expect((await http.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: soursop.id, qty: 1 }] } })).status).toBe(200);
    const page = await app.newPage(desktop);
    await signIn(page, app.base, member, /\/user\/dashboard/);
    await page.getByRole('link', { name: 'Repurchase' }).click();
    await choose(page, 'Order type', 'Repurchase');
    await page.getByLabel('Quantity of Moringa Leaf Capsules').fill('2');
    await page.getByRole('button', { name: 'Add Moringa Leaf Capsules' }).click();
    await page.getByTestId('cart-total').filter({ hasText: '₦17,000.00' }).waitFor();
    // The quantity box is back to 1 once the line is in the cart.
    expect(await page.getByLabel('Quantity of Moringa Leaf Capsules').inputValue()).toBe('1');
    await page.getByRole('radio', { name: 'Card' }).check();
    // 1. The payment modal: the provider's page embedded, with the countdown.
    await page.getByRole('button', { name: 'Pay by card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make Payment' });
    await expect.poll(() => dialog.getByTestId('payment-countdown').textContent()).toMatch(/\d+:\d{2} left/);
    await fullShot(page, 'repurchase-card-modal-desktop');
    await page.frameLocator('iframe[title="Payment page"]').getByRole('button', { name: /^Pay ₦17,000/ }).click();
    await expectToast(page, 'Payment Verified successfully');
    const row = page.getByTestId('purchase-row').filter({ hasText: '₦17,000.00' });
    await expect.poll(() => row.getByTestId('status').textContent()).toBe('processing');
    // 2. The order's products.
    await row.getByRole('button', { name: 'Details' }).click();
    const products = page.getByRole('table', { name: 'Order products' });
    await expect.poll(() => products.getByTestId('order-product').textContent()).toContain('Moringa Leaf Capsules');
    expect(await products.getByTestId('order-product').locator('td').nth(1).textContent()).toBe('2');
    await fullShot(page, 'repurchase-details-modal-desktop');
    await page.getByRole('button', { name: 'Close' }).click();
    // 3. The order code, after the password.
    await row.getByRole('button', { name: 'Order code' }).click();
    await page.getByLabel('Your password').fill(member.password);
    await page.getByRole('button', { name: 'Show code' }).click();
    await expect.poll(async () => (await page.getByTestId('order-code').textContent())?.trim()).toMatch(/^[A-Z2-9]{8}$/);
    const paid = await app.t.runtime.db.selectFrom('product_purchases').select(['status', 'payment_method']).where('member_id', '=', member.id).where('pickup_type', '=', 'repurchase_pickup').executeTakeFirstOrThrow();
    expect(paid).toMatchObject({ status: 'processing', payment_method: 'payment_gateway' });
  }, 180_000);

  it('a pick-up below its allowance asks first (Go back sends nothing, confirming sends it); a full one does not; upgrade pick-up is offered only after an upgrade; quantities are bounded', async () => {
    const { http } = app;
    const db = app.t.runtime.db;
    // Bronze: a ₦30,000 registration pick-up; Bronze → Gold adds a ₦90,000 upgrade pick-up.
    const member = await http.activeMember({ referrer: 'herbalhq', package_id: 2 });
    const placed = () => db.selectFrom('product_purchases').select(['pickup_type', 'total_price']).where('member_id', '=', member.id).orderBy('created_at').execute();
    const page = await app.newPage({ viewport: { width: 1366, height: 800 } });
    await signIn(page, app.base, member, /\/user\/dashboard/);
    await page.getByRole('link', { name: 'Repurchase' }).click();
    await page.getByTestId('product-row').first().waitFor();
    // Before any pick-up only the registration one is offered; never the upgrade one.
    expect(await options(page, 'Order type')).toEqual(['Registration pick-up']);
    await choose(page, 'Order type', 'Registration pick-up');

    // Quantities: 0, a fraction, a negative and 999,999,999 are each refused beside the product, and nothing reaches the cart.
    const problem = page.getByTestId('quantity-problem');
    for (const [typed, says] of [['0', 'Enter a whole number of at least 1.'], ['1.5', 'Enter a whole number of at least 1.'], ['-2', 'Enter a whole number of at least 1.'], ['999999999', 'Enter at most 1,000']] as const) {
      await page.getByLabel('Quantity of Moringa Leaf Capsules').fill(typed);
      await page.getByRole('button', { name: 'Add Moringa Leaf Capsules' }).click();
      await expect.poll(() => problem.textContent()).toContain(says);
      expect(await page.getByLabel('Quantity of Moringa Leaf Capsules').getAttribute('aria-invalid')).toBe('true');
    }
    await fullShot(page, 'pickup-quantity-problem-desktop');
    expect(await page.getByTestId('cart-line').count()).toBe(0);
    // 1,000 in the cart, then one more of the same product is refused: the line would pass the server's bound.
    await page.getByLabel('Quantity of Moringa Leaf Capsules').fill('1000');
    await page.getByRole('button', { name: 'Add Moringa Leaf Capsules' }).click();
    await page.getByTestId('cart-line').filter({ hasText: '× 1000' }).waitFor();
    expect(await problem.count()).toBe(0);
    await page.getByRole('button', { name: 'Add Moringa Leaf Capsules' }).click();
    await expect.poll(() => problem.textContent()).toContain('at most 1,000 of one product');
    await page.getByRole('button', { name: 'Remove Moringa Leaf Capsules' }).click();

    // ₦17,000 of ₦30,000: the cart says what is left, and submitting asks first.
    await page.getByLabel('Quantity of Moringa Leaf Capsules').fill('2');
    await page.getByRole('button', { name: 'Add Moringa Leaf Capsules' }).click();
    await expect.poll(() => page.getByTestId('allowance-left').textContent()).toBe('Pick-up amount: ₦30,000.00 · left after this order: ₦13,000.00');
    const dialog = page.getByRole('dialog', { name: 'Use only part of your allowance?' });
    await page.getByRole('button', { name: 'Submit order' }).click();
    await expect.poll(() => dialog.getByTestId('partial-pickup-text').textContent()).toBe(
      'This registration pick-up uses ₦17,000.00 of your ₦30,000.00 allowance. It can be made only once: the remaining ₦13,000.00 will be forfeited and cannot be picked up later.',
    );
    await fullShot(page, 'pickup-partial-confirm-desktop');
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await placed(), 'Go back sends nothing').toEqual([]);
    expect(await page.getByTestId('cart-line').count(), 'and keeps the cart').toBe(1);
    await page.getByRole('button', { name: 'Submit order' }).click();
    await dialog.getByRole('button', { name: 'Submit and forfeit ₦13,000.00' }).click();
    await expectToast(page, 'Order placed successfully');
    await expect.poll(placed).toEqual([{ pickup_type: 'registration_pickup', total_price: 1_700_000 }]);
    // Taken: the registration pick-up is gone, and without an upgrade there is no upgrade pick-up either.
    expect(await options(page, 'Order type')).toEqual(['Repurchase']);

    // An approved upgrade to Gold opens its pick-up; the whole ₦90,000 (6 × ₦7,000 + 4 × ₦12,000) is sent without asking.
    const upgrade = await http.upload('POST', '/api/payments/initiate', { token: member.token, fields: { amount: 105_000, is_upgrade: 1, meta_data: 4, txn_source: 'package_payment', payment_type: 'pop', description: 'Upgrade to Gold' }, files: { payment_receipt: { bytes: receiptImage, filename: 'receipt.png', type: 'image/png' } } });
    expect(upgrade.status, upgrade.body.message).toBe(200);
    expect((await http.call('PATCH', `/api/payments/package-payments/${upgrade.body.data.payment_id}/approve`, { token: await http.adminToken() })).status).toBe(200);
    await page.reload();
    await page.getByTestId('product-row').first().waitFor();
    await expect.poll(() => options(page, 'Order type')).toEqual(['Upgrade pick-up', 'Repurchase']);
    await choose(page, 'Order type', 'Upgrade pick-up');
    await page.getByLabel('Quantity of Soursop Leaf Tea').fill('6');
    await page.getByRole('button', { name: 'Add Soursop Leaf Tea' }).click();
    await page.getByLabel('Quantity of Black Seed Oil 100 ml').fill('4');
    await page.getByRole('button', { name: 'Add Black Seed Oil 100 ml' }).click();
    await expect.poll(() => page.getByTestId('allowance-left').textContent()).toBe('Pick-up amount: ₦90,000.00 · left after this order: ₦0.00');
    await page.getByRole('button', { name: 'Submit order' }).click();
    await expectToast(page, 'Order placed successfully');
    expect(await dialog.count()).toBe(0);
    await expect.poll(async () => (await placed()).map((p) => p.pickup_type)).toEqual(['registration_pickup', 'upgrade_pickup']);
    await expect.poll(() => options(page, 'Order type')).toEqual(['Repurchase']);

    // A phone: the refused quantity and the question fit the screen.
    const phonePage = await app.newPage(phone);
    const other = await http.activeMember({ referrer: 'herbalhq', package_id: 2 });
    await signIn(phonePage, app.base, other, /\/user\/dashboard/);
    await phonePage.goto(`${app.base}/user/repurchase`);
    await phonePage.getByTestId('product-row').first().waitFor();
    await choose(phonePage, 'Order type', 'Registration pick-up');
    await phonePage.getByLabel('Quantity of Soursop Leaf Tea').fill('0');
    await phonePage.getByRole('button', { name: 'Add Soursop Leaf Tea' }).click();
    await phonePage.getByTestId('quantity-problem').waitFor();
    await phonePage.getByTestId('quantity-problem').scrollIntoViewIfNeeded();
    await phonePage.screenshot({ path: `${shots}/pickup-quantity-problem-phone.png` });
    await phonePage.getByLabel('Quantity of Soursop Leaf Tea').fill('1');
    await phonePage.getByRole('button', { name: 'Add Soursop Leaf Tea' }).click();
    await phonePage.getByRole('button', { name: 'Submit order' }).click();
    await phonePage.getByRole('dialog', { name: 'Use only part of your allowance?' }).getByTestId('partial-pickup-text').waitFor();
    await phonePage.waitForTimeout(300);
    await phonePage.screenshot({ path: `${shots}/pickup-partial-confirm-phone.png` });
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'nothing scrolls sideways on a phone').toBe(true);
  }, 180_000);

  it('a registration pick-up past the first page of the history is still known as taken: only Repurchase is offered', async () => {
    const { http } = app;
    const db = app.t.runtime.db;
    const member = await http.activeMember({ referrer: 'herbalhq', package_id: 2 });
    const soursop = await db.selectFrom('products').select(['id', 'worth']).where('name', '=', 'Soursop Leaf Tea').executeTakeFirstOrThrow();
    const pickup = await http.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: soursop.id, qty: 1 }] } });
    expect(pickup.status, pickup.body.message).toBe(200);
    // Ten repurchases after it fill the history's first page (10 a page): the pick-up is on page 2.
    await creditWallet(db, member.id, 10 * soursop.worth);
    await settleConsumers(db);
    for (let i = 0; i < 10; i++) {
      const paid = await http.call('PATCH', '/api/withdrawals/pay-with-wallet', {
        token: member.token,
        body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: soursop.worth / 100, products: [{ id: soursop.id, qty: 1 }] },
      });
      expect(paid.status, paid.body.message).toBe(200);
    }
    const firstPage = await http.call('GET', `/api/product-purchases/user/${member.id}/history?page=1`, { token: member.token });
    expect(firstPage.body.data.data.map((p: { pickup_type: string }) => p.pickup_type)).not.toContain('registration_pickup');
    for (const [options_, name] of [[{ viewport: { width: 1366, height: 800 } }, 'desktop'], [phone, 'phone']] as const) {
      const page = await app.newPage(options_);
      await signIn(page, app.base, member, /\/user\/dashboard/);
      await page.goto(`${app.base}/user/repurchase`);
      await page.getByTestId('product-row').first().waitFor();
      await expect.poll(() => options(page, 'Order type')).toEqual(['Repurchase']);
      await page.getByRole('combobox', { name: 'Order type' }).click();
      await page.getByRole('listbox').waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${shots}/repurchase-long-history-${name}.png` });
      await page.keyboard.press('Escape');
    }
  }, 180_000);
});

/** The options a select offers, in order (the menu is closed again). */
async function options(page: Page, label: string): Promise<string[]> {
  await page.getByRole('combobox', { name: label }).click();
  const listed = page.getByRole('listbox').getByRole('option');
  await listed.first().waitFor();
  const texts = await listed.allTextContents();
  await page.keyboard.press('Escape');
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
  return texts;
}

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}
