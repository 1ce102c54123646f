import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MemberAppTest, expectToast, fullShot, phone, shots, signIn, startMemberApp, screenshotOnFailure } from './member-app';

/**
 * Card payment of the registration from the welcome page, in a real browser: the provider's page
 * (the Paystack stand-in) opens in the payment dialog's iframe; when it returns to /payment-complete
 * the portal verifies at once instead of waiting the seeds' 2 minutes.
 */
let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => {
  await app?.close();
});
afterEach(screenshotOnFailure(() => app));

describe('card payment on the welcome page', () => {
  it('closes the dialog with "Unable to verify payment" when the member cancels on the provider’s page', async () => {
    const member = await app.http.registeredMember();
    const page = await app.newPage(phone);
    await signIn(page, app.base, member, /\/welcome/);

    await page.getByTestId('pay-now').click();
    const checkout = page.frameLocator('iframe[title="Payment page"]');
    await checkout.getByRole('button', { name: /^Pay ₦35,000/ }).waitFor();
    await expect.poll(() => page.getByTestId('payment-countdown').textContent()).toMatch(/^[56]:\d\d left$/);
    await page.waitForTimeout(800); // the dialog's fade-in
    await page.screenshot({ path: `${shots}/welcome-card-dialog-phone.png` });

    await checkout.getByRole('button', { name: 'Cancel' }).click();
    await expectToast(page, 'Unable to verify payment');
    await expect.poll(() => page.locator('iframe[title="Payment page"]').count()).toBe(0);
    expect(page.url()).toMatch(/\/welcome$/);
    const me = await app.http.call('GET', '/api/auth/user', { token: member.token });
    expect(me.body.data.payment).toBeNull();
  });

  it('activates the member as soon as the provider’s page returns: dashboard well before the 2-minute check', async () => {
    const member = await app.http.registeredMember();
    const page = await app.newPage();
    await signIn(page, app.base, member, /\/welcome/);
    await expect.poll(() => page.getByTestId('package-amount').textContent()).toBe('₦35,000.00');
    await fullShot(page, 'welcome-desktop');

    const started = Date.now();
    await page.getByTestId('pay-now').click();
    const checkout = page.frameLocator('iframe[title="Payment page"]');
    await checkout.getByRole('button', { name: /^Pay ₦35,000/ }).waitFor();
    await page.waitForTimeout(800); // the dialog's fade-in
    await page.screenshot({ path: `${shots}/welcome-card-dialog-desktop.png` });
    await checkout.getByRole('button', { name: /^Pay ₦35,000/ }).click();

    await page.waitForURL(/\/user\/dashboard/, { timeout: 20_000 });
    expect(Date.now() - started).toBeLessThan(60_000);
    await expectToast(page, 'Payment Verified successfully');
    await expect.poll(() => page.getByTestId('package-card').textContent()).toContain('Activated');
    await fullShot(page, 'dashboard-after-card-payment');

    const me = await app.http.call('GET', '/api/auth/user', { token: member.token });
    expect(me.body.data.payment).toBe('approved');
    expect(me.body.data.is_deactivated).toBe(false);
  });
});
