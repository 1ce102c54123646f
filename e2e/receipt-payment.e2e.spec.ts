import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expireOverdueRegistrations } from '../services/src/membership/expiry';
import { type MemberAppTest, expectToast, fullShot, phone, receiptImage, screenfuls, signIn, startMemberApp, screenshotOnFailure } from './member-app';

/**
 * Paying the registration by proof of payment, in a real browser: the member uploads a receipt on
 * the welcome page and waits; an admin declines it with a reason (the member sees why and uploads
 * again), then approves the new one, and the member reaches the dashboard.
 */
let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => {
  await app?.close();
});
afterEach(screenshotOnFailure(() => app));

async function pendingPaymentId(token: string, memberId: string): Promise<string> {
  const payments = await app.http.call('GET', `/api/users/${memberId}/package-payments`, { token });
  expect(payments.status).toBe(200);
  const pending = (payments.body.data.data as Array<{ id: string; status: string }>).filter((p) => p.status === 'pending');
  expect(pending).toHaveLength(1);
  return pending[0]!.id;
}

describe('receipt upload on the welcome page', () => {
  it('refuses an image over 500 kB, and a file that is not an image whatever its name, before sending it', async () => {
    const member = await app.http.registeredMember();
    const page = await app.newPage(phone);
    await signIn(page, app.base, member, /\/welcome/);
    await page.locator('input[name=payment_receipt]').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(501_000, 1) });
    await expectToast(page, 'Image size should not exceed 500kB');
    await expect.poll(() => page.getByTestId('receipt-preview').count()).toBe(0);
    // A program renamed .png is refused by its content as soon as it is chosen, and not kept to send.
    await page.locator('input[name=payment_receipt]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2_000, 0x90)]) });
    await expectToast(page, 'The file must be a JPEG, PNG or WebP image.');
    expect(await page.getByTestId('receipt-preview').count()).toBe(0);
    await screenfuls(page, 'welcome-phone');
  });

  it('uploads a receipt → awaits approval → declined with a reason → uploads again → approved → dashboard', async () => {
    const member = await app.http.registeredMember();
    const page = await app.newPage();
    await signIn(page, app.base, member, /\/welcome/);

    await page.locator('input[name=payment_receipt]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: receiptImage });
    await page.getByTestId('receipt-preview').waitFor();
    await page.getByRole('button', { name: 'Upload receipt' }).click();
    await expectToast(page, 'Payment reciept uploaded successfuly');
    await page.getByTestId('receipt-awaiting-approval').waitFor();
    await expect.poll(() => page.getByTestId('pay-now').count()).toBe(0);
    await fullShot(page, 'welcome-receipt-awaiting-approval');

    const admin = await app.http.adminToken();
    const first = await pendingPaymentId(member.token, member.id);
    const declined = await app.http.call('PATCH', `/api/payments/package-payments/${first}/disapprove`, { token: admin, body: { reason: 'The receipt is not readable.' } });
    expect(declined.status, declined.body.message).toBe(200);

    // The test clock stands still unless moved: the new receipt must come after the declined one.
    app.t.clock.advanceMinutes(5);
    await page.reload();
    await expect.poll(() => page.getByTestId('receipt-declined').textContent()).toContain('The receipt is not readable.');
    await fullShot(page, 'welcome-receipt-declined');
    await page.locator('input[name=payment_receipt]').setInputFiles({ name: 'receipt-again.png', mimeType: 'image/png', buffer: receiptImage });
    await page.getByRole('button', { name: 'Upload receipt' }).click();
    await page.getByTestId('receipt-awaiting-approval').waitFor();

    const second = await pendingPaymentId(member.token, member.id);
    expect(second).not.toBe(first);
    const approved = await app.http.call('PATCH', `/api/payments/package-payments/${second}/approve`, { token: admin, body: {} });
    expect(approved.status, approved.body.message).toBe(200);

    await page.reload();
    await page.waitForURL(/\/user\/dashboard/);
    await expect.poll(() => page.getByTestId('package-card').textContent()).toContain('Activated');
    const me = await app.http.call('GET', '/api/auth/user', { token: member.token });
    expect(me.body.data.payment).toBe('approved');
  });

  // Last: it moves this file's clock past the 7-day window.
  it('tells a member whose registration expired that an administrator must reinstate it, and offers no payment', async () => {
    const member = await app.http.registeredMember();
    app.t.clock.advanceMinutes(8 * 24 * 60);
    expect(await expireOverdueRegistrations(app.t.runtime.commands, app.t.clock.now)).toBeGreaterThan(0);

    const page = await app.newPage();
    await signIn(page, app.base, member, /\/welcome/);
    await expect.poll(() => page.getByTestId('registration-expired').textContent()).toContain('An administrator must reinstate your registration');
    expect(await page.getByTestId('pay-now').count()).toBe(0);
    expect(await page.locator('input[name=payment_receipt]').count()).toBe(0);
    await fullShot(page, 'welcome-expired');
  });
});
