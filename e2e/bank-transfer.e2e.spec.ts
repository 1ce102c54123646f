import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transferReference } from '../services/src/contracts/bank-transfer';
import { type MemberAppTest, desktop, expectToast, fullShot, phone, shots, signIn, startMemberApp, screenshotOnFailure } from './member-app';

/**
 * Wherever a member may pay by transfer and upload a receipt, the page says where to pay (the
 * company's accounts), how much exactly, and the reference to write, each with a copy button.
 */
let app: MemberAppTest;
beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => app?.close());
afterEach(screenshotOnFailure(() => app));

describe('the account to pay into', () => {
  it('shows the company accounts, the exact amount and the reference on the welcome page, and copies them', async () => {
    const member = await app.http.registeredMember({ package_id: 2 });
    const page = await app.newPage(desktop);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.base });
    await signIn(page, app.base, member, /\/welcome/);
    const details = page.getByTestId('bank-transfer-details');
    await expect.poll(() => details.getByTestId('company-bank').count(), { timeout: 10_000 }).toBe(2);
    const text = await details.textContent();
    expect(text).toContain('Zenith Bank');
    expect(text).toContain('1012345678');
    expect(text).toContain('Herbal Life Network Ltd');
    expect(await details.getByTestId('transfer-amount').textContent()).toBe('₦35,000.00');
    const reference = transferReference('registration', member.username);
    expect(await details.getByTestId('transfer-reference').textContent()).toBe(reference);

    await details.getByRole('button', { name: 'Copy reference' }).click();
    await expectToast(page, 'Reference copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
    await details.getByRole('button', { name: 'Copy account number' }).first().click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('1012345678');
    await fullShot(page, 'welcome-bank-transfer-desktop');

    const small = await app.newPage(phone);
    await signIn(small, app.base, member, /\/welcome/);
    await small.getByTestId('bank-transfer-details').getByTestId('company-bank').first().waitFor();
    await small.getByTestId('bank-transfer-details').scrollIntoViewIfNeeded();
    await small.screenshot({ path: `${shots}/welcome-bank-transfer-phone.png` });
  });

  it('shows the upgrade difference and its own reference next to the upgrade receipt upload', async () => {
    const member = await app.http.activeMember({ package_id: 2 });
    const page = await app.newPage(desktop);
    await signIn(page, app.base, member, /\/dashboard/);
    await page.goto(`${app.base}/user/profile`);
    await page.getByTestId('upgrade-package-select').click();
    await page.getByRole('option').first().click();
    const details = page.getByTestId('bank-transfer-details');
    await expect.poll(() => details.getByTestId('transfer-amount').textContent()).toMatch(/^₦[\d,]+\.00$/);
    expect(await details.getByTestId('transfer-reference').textContent()).toMatch(new RegExp(`^HLN-UPG-${member.username.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 18)}-P\\d$`));
    await fullShot(page, 'upgrade-bank-transfer-desktop');
  });
});
