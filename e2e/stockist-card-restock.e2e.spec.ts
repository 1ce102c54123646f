import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleConsumers } from '../services/test/consumers';
import { tinyPng } from '../services/test/multipart';
import { creditWallet } from '../services/test/wallet';
import { type MemberAppTest, desktop, expectToast, fullShot, phone, screenfuls, signIn, startMemberApp } from './member-app';

/**
 * A stockist re-stocks by card in Chromium (BUSINESS-RULES.md §5): the stock purchase page offers
 * Pay by card for a re-stock; the Paystack stand-in's page opens in the payment dialog; once paid
 * the purchase is on the record as paid by card and waiting for the admins' approval.
 */
let app: MemberAppTest;
beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

describe('re-stock by card', () => {
  it('a stockist with ₦29,000 of last month\'s sales pays ₦12,000 of stock by card; it waits for the admins, marked Card', async () => {
    const { http } = app;
    const admin = await http.adminToken();
    const signee = await http.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    const stockist = await http.activeMember({ referrer: signee.username, package_id: 2 }, { asParent: true });
    const member = await http.activeMember({ referrer: stockist.username, package_id: 2 });
    const ids = new Map<string, number>(((await http.call('GET', '/api/products/active', { token: member.token })).body.data as Array<{ id: number; name: string }>).map((p) => [p.name, p.id]));
    const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };
    const applied = await http.upload('POST', '/api/stockists/create', { token: stockist.token, fields: { store_name: 'Ikeja Herbs', store_address: '12 Allen Avenue', store_state: 'Lagos', store_phone: '08031234567', package_id: 1, referrer: signee.username }, files: receipt });
    expect((await http.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/approve-registration`, { token: admin })).status).toBe(200);
    const stock = await http.upload('POST', `/api/product-purchases/stockist/${stockist.id}`, { token: stockist.token, fields: { pickup_type: 'registration_pickup', products: JSON.stringify([{ id: ids.get('Moringa Leaf Capsules'), qty: 2 }, { id: ids.get('Black Seed Oil 100 ml'), qty: 1 }]) } });
    expect((await http.call('PATCH', `/api/product-purchases/${stock.body.data.id}/approve-stock`, { token: admin })).status).toBe(200);
    await creditWallet(app.t.runtime.db, member.id, 5_000_000);
    await settleConsumers(app.t.runtime.db);
    await http.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: ids.get('Soursop Leaf Tea'), qty: 1 }] } });
    const paid = await http.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: member.token, body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: 29_000, products: [{ id: ids.get('Moringa Leaf Capsules'), qty: 2 }, { id: ids.get('Black Seed Oil 100 ml'), qty: 1 }] } });
    const code = (await http.call('POST', '/api/product-purchases/order-code', { token: member.token, body: { password: member.password, order_id: paid.body.data.purchase_id } })).body.data.order_code;
    const looked = await http.call('GET', `/api/product-purchases/fetch-order/${code}`, { token: stockist.token });
    expect((await http.call('PATCH', `/api/product-purchases/${looked.body.data.purchase_id}/vendor-approve`, { token: stockist.token })).status).toBe(200);
    await settleConsumers(app.t.runtime.db);
    // Next month: last month's ₦29,000 of sales may be re-stocked.
    const now = app.t.clock.now;
    app.t.clock.now = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2, 12));

    const page = await app.newPage(desktop);
    await signIn(page, app.base, stockist, /\/user\/dashboard/);
    await page.getByRole('link', { name: 'Stock Purchase' }).click();
    await choose(page, 'Pick-up type', 'Re-stock');
    await page.getByText('available to re-stock ₦29,000.00').waitFor();
    await page.getByLabel('Quantity of Black Seed Oil 100 ml').fill('1');
    await page.getByRole('button', { name: 'Add Black Seed Oil 100 ml' }).click();
    await page.getByTestId('cart-total').filter({ hasText: '₦12,000.00' }).waitFor();
    await fullShot(page, 'stockist-restock-card-desktop');
    await page.getByRole('button', { name: 'Pay by card' }).click();
    const checkout = page.frameLocator('iframe[title="Payment page"]');
    await checkout.getByRole('button', { name: /^Pay ₦12,000/ }).click();
    await expectToast(page, 'Payment Verified successfully');

    const purchase = await app.t.runtime.db.selectFrom('stock_purchases').select(['id', 'status', 'payment_id']).where('member_id', '=', stockist.id).where('pickup_type', '=', 're-stock').executeTakeFirstOrThrow();
    expect(purchase.status).toBe('processing');
    expect(purchase.payment_id).not.toBeNull();
    await page.getByRole('link', { name: 'Stockist Record' }).click();
    await page.getByRole('row').filter({ hasText: 'Re-stock' }).filter({ hasText: 'Card' }).first().waitFor();
    await fullShot(page, 'stockist-restock-card-record');

    const phonePage = await app.newPage(phone);
    await signIn(phonePage, app.base, stockist, /\/user\/dashboard/);
    await phonePage.goto(`${app.base}/user/stock-purchase`);
    await choose(phonePage, 'Pick-up type', 'Re-stock');
    await phonePage.getByText('available to re-stock ₦17,000.00').waitFor();
    await screenfuls(phonePage, 'stockist-restock-card-phone', 2);
  }, 240_000);
});
