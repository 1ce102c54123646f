import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleConsumers } from '../services/test/consumers';
import { tinyPng } from '../services/test/multipart';
import { creditWallet } from '../services/test/wallet';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, desktop, fullShot, phone, screenfuls, signInAdmin, startMemberApp } from './member-app';

/**
 * Back office, members list (seed 001 §2.10–2.11): a stockist's row shows its stockist package,
 * status and date; its menu adds Stockist Profile, Stockist Record and Processed Orders, which show
 * the store, the stock left, the rebate to the kobo and the order it handed over; the buyer's
 * Repurchase History names the store. Finance staff read the same panels.
 */
let app: MemberAppTest;
const settle = () => settleConsumers(app.t.runtime.db);
beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());

const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };

describe('a stockist in the members list', () => {
  it('shows the stockist columns and the three stockist panels with stock, rebate and processed orders', async () => {
    const { http } = app;
    const admin = await http.adminToken();
    const signee = await http.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    const stockist = await http.activeMember({ referrer: signee.username, package_id: 2 }, { asParent: true });
    const member = await http.activeMember({ referrer: stockist.username, package_id: 2 });
    const products = new Map<string, number>(((await http.call('GET', '/api/products/active', { token: member.token })).body.data as Array<{ id: number; name: string }>).map((p) => [p.name, p.id]));

    const applied = await http.upload('POST', '/api/stockists/create', {
      token: stockist.token,
      fields: { store_name: 'Ikeja Herbs', store_address: '12 Allen Avenue', store_state: 'Lagos', store_phone: '08031234567', package_id: 1, referrer: signee.username },
      files: receipt,
    });
    expect(applied.status, applied.body.message).toBe(200);
    expect((await http.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/approve-registration`, { token: admin })).status).toBe(200);
    // 3 Moringa (₦8,500) + 2 Black Seed Oil (₦12,000) = ₦49,500 of stock.
    const stock = await http.upload('POST', `/api/product-purchases/stockist/${stockist.id}`, {
      token: stockist.token,
      fields: { pickup_type: 'registration_pickup', products: JSON.stringify([{ id: products.get('Moringa Leaf Capsules'), qty: 3 }, { id: products.get('Black Seed Oil 100 ml'), qty: 2 }]) },
      files: receipt,
    });
    expect(stock.status, stock.body.message).toBe(200);
    expect((await http.call('PATCH', `/api/product-purchases/${stock.body.data.id}/approve-stock`, { token: admin })).status).toBe(200);
    await settle();

    // The member buys 2 Moringa + 1 Black Seed Oil = ₦29,000 from the wallet; the stockist hands it over.
    await creditWallet(app.t.runtime.db, member.id, 5_000_000);
    await settle();
    const placed = await http.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: products.get('Soursop Leaf Tea'), qty: 1 }] } });
    expect(placed.status, placed.body.message).toBe(200);
    const paid = await http.call('PATCH', '/api/withdrawals/pay-with-wallet', {
      token: member.token,
      body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: 29_000, products: [{ id: products.get('Moringa Leaf Capsules'), qty: 2 }, { id: products.get('Black Seed Oil 100 ml'), qty: 1 }] },
    });
    expect(paid.status, paid.body.message).toBe(200);
    const code = (await http.call('POST', '/api/product-purchases/order-code', { token: member.token, body: { password: member.password, order_id: paid.body.data.purchase_id } })).body.data.order_code;
    const looked = await http.call('GET', `/api/product-purchases/fetch-order/${code}`, { token: stockist.token });
    expect(looked.status, looked.body.message).toBe(200);
    expect((await http.call('PATCH', `/api/product-purchases/${looked.body.data.purchase_id}/vendor-approve`, { token: stockist.token })).status).toBe(200);
    await settle();

    const page = await app.newPage(desktop);
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.goto(`${app.base}/admin/members`);
    await page.getByTestId('members-tab-stockists').click();
    const row = page.locator('tr').filter({ hasText: stockist.username });
    await row.waitFor();
    // The stockist's row is on both tabs: wait for the list to drop the member who is not a stockist.
    await expect.poll(() => page.locator('tbody tr').filter({ hasText: member.username }).count()).toBe(0);
    await expect.poll(() => row.textContent()).toContain('Mini Stockist');
    expect(await row.textContent()).toContain('Stockist');
    await fullShot(page, 'admin-members-stockists');

    await row.getByTestId('member-actions').click();
    for (const item of ['Stockist Profile', 'Stockist Record', 'Processed Orders']) await page.getByRole('menuitem', { name: item }).waitFor();
    await page.getByRole('menuitem', { name: 'Stockist Record' }).click();
    await page.waitForURL(/\/stockist-record$/);
    // 5% of ₦29,000 = ₦1,450.00; 3 + 2 − (2 + 1) = 2 units left.
    await expect.poll(() => page.getByTestId('stockist-record-rebate').textContent()).toContain('₦1,450.00');
    await expect.poll(() => page.getByTestId('stockist-record-units').textContent()).toContain('2');
    const stockTable = page.getByTestId('stock-record');
    for (const product of ['Moringa Leaf Capsules', 'Black Seed Oil 100 ml']) {
      await expect.poll(() => stockTable.locator('tr').filter({ hasText: product }).locator('td').nth(2).textContent()).toBe('1');
    }
    await page.getByTestId('stock-details').getByText('Moringa Leaf Capsules').waitFor();
    // The search box filters the rows.
    await page.getByTestId('stock-details').getByRole('textbox', { name: 'Search' }).fill('black seed');
    await expect.poll(() => page.getByTestId('stock-details').locator('tbody tr').count()).toBe(1);
    await page.getByTestId('rebate-earnings').getByText('₦1,450.00').waitFor();
    await fullShot(page, 'admin-member-stockist-record');

    await page.getByRole('tab', { name: 'Processed Orders' }).click();
    const processed = page.getByTestId('processed-orders').locator('tbody tr');
    await processed.filter({ hasText: member.username }).waitFor();
    expect(await processed.first().textContent()).toContain('₦29,000.00');
    await page.getByRole('tab', { name: 'Stockist Profile' }).click();
    await page.getByTestId('stockist-profile').getByText('12 Allen Avenue').waitFor();
    expect(await page.getByTestId('stockist-profile').textContent()).toContain(signee.username);

    // The buyer's Repurchase History names the store instead of N/A.
    await page.goto(`${app.base}/admin/members/${member.id}/show/repurchases`);
    const orders = page.getByTestId('repurchase-history').locator('tbody tr');
    await orders.filter({ hasText: 'Ikeja Herbs' }).filter({ hasText: '₦29,000.00' }).waitFor();
    expect(await orders.filter({ hasText: 'Ikeja Herbs' }).first().textContent()).toContain('08031234567');

    // Finance staff read the same panels.
    const fin = await app.newPage(phone);
    await signInAdmin(fin, app.base, demoLogins.finance);
    await fin.goto(`${app.base}/admin/members/${stockist.id}/show/stockist-record`);
    await expect.poll(() => fin.getByTestId('stockist-record-rebate').textContent()).toContain('₦1,450.00');
    await screenfuls(fin, 'admin-member-stockist-record-phone', 3);
    await fin.goto(`${app.base}/admin/members`);
    // On a phone the list shows names, not usernames (common/ResponsiveDataTable.tsx): wait for its rows.
    await fin.locator('tbody tr').first().waitFor();
    await screenfuls(fin, 'admin-members-phone', 1);
  }, 180_000);
});
