import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, desktop, phone, receiptImage, shots, signIn, signInAdmin, startMemberApp } from './member-app';

/**
 * Both apps and the card provider's checkout frame work under the api's Content-Security-Policy
 * (api/security-headers.ts) in Chromium: every page the walk below opens reports no CSP violation,
 * and what each page is for still happens (sign-in, a card payment through the stand-in's page in
 * the payment dialog's frame, the back office dashboard with a receipt image).
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
    await app.lastPage()?.screenshot({ path: `${shots}/failed-csp-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

/** Collects the page's CSP violations (every frame's console reports them) and script errors. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|frame|connect)/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

describe('the Content-Security-Policy in Chromium', () => {
  it('the member app signs in, opens the card checkout frame and is activated by it, with no violation', async () => {
    const member = await app.http.registeredMember();
    const page = await app.newPage(phone);
    const problems = watch(page);
    const response = await page.goto(`${app.base}/login`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await signIn(page, app.base, member, /\/welcome/);
    await page.getByTestId('pay-now').click();
    const checkout = page.frameLocator('iframe[title="Payment page"]');
    await checkout.getByRole('button', { name: /^Pay ₦35,000/ }).click();
    // The provider returns the frame to our /payment-complete, which tells the window to verify.
    await page.waitForURL(/\/user\/dashboard/, { timeout: 30_000 });
    await page.screenshot({ path: `${shots}/csp-member-dashboard-phone.png` });
    expect(problems).toEqual([]);
  }, 120_000);

  it('the back office shows its dashboard and a signed receipt image, with no violation', async () => {
    const member = await app.http.registeredMember();
    const uploaded = await app.http.upload('POST', '/api/payments/initiate', {
      token: member.token,
      fields: { txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'pop' },
      files: { payment_receipt: { bytes: receiptImage, filename: 'receipt.png', type: 'image/png' } },
    });
    expect(uploaded.status).toBe(200);
    const page = await app.newPage(desktop);
    const problems = watch(page);
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.getByText('Welcome, Demo Administrator').waitFor();
    await page.getByText('Payments per month').waitFor();
    await page.screenshot({ path: `${shots}/csp-admin-dashboard-desktop.png` });
    // The receipt, as the approvals screen links it: a signed, short-lived link that loads as an image.
    const admin = await app.http.adminToken();
    const view = await app.http.call('GET', `/api/admin/package-payments/${uploaded.body.data.payment_id}`, { token: admin });
    const receiptUrl = (view.body as unknown as { receipt_url: string }).receipt_url;
    expect(receiptUrl).toMatch(/^\/storage\/receipts\/.+signature=/);
    const width = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return img.naturalWidth;
    }, receiptUrl);
    expect(width).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
