import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codeMailedTo } from '../services/test/app';
import { type MemberAppTest, activeMember, expectToast, fullShot, pasteInto, phone, receiptImage, screenfuls, shots, signIn, startMemberApp, screenshotOnFailure } from './member-app';

/**
 * The profile and security pages of an active member in a real browser: profile with a photo,
 * the upgrade summary, bank details verified with the bank (the stand-in's Test Bank 001), 2FA and
 * the two-step password change with the code read from the captured mail.
 */
let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => {
  await app?.close();
});
afterEach(screenshotOnFailure(() => app));

describe('profile and security', () => {
  it('edits the profile with a photo, saves verified bank details, turns 2FA on and changes the password', async () => {
    const member = await activeMember(app);
    const page = await app.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.base });
    await signIn(page, app.base, member, /\/user\/dashboard/);

    // ── My Profile ──
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL(/\/user\/profile$/);
    // The first member registered here is placed, and so sponsored, by the company root.
    await expect.poll(() => page.getByTestId('upline-card').textContent()).toContain('@herbalhq');
    const form = page.getByRole('form', { name: 'Edit profile' });
    await form.locator('input[name=first_name]').fill('Ngozi');
    await form.locator('input[name=phone]').fill('08059876543');
    await page.getByTestId('gender-select').click();
    await page.getByRole('option', { name: 'Female' }).click();
    await form.locator('textarea[name=address]').fill('12 Palm Avenue, Ikeja, Lagos');
    await form.locator('input[name=image]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: receiptImage });
    await form.getByRole('button', { name: 'Save profile' }).click();
    await expectToast(page, 'data updated successfully');
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe(`Ngozi ${member.last_name}`);
    await expect.poll(() => page.getByTestId('profile-card').textContent()).toContain('12 Palm Avenue, Ikeja, Lagos');
    await expect.poll(() => page.getByTestId('profile-card').locator('img').first().getAttribute('src')).toMatch(/^\/storage\/photos\//);
    await expect.poll(() => page.getByTestId('profile-card').locator('img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const profile = await app.http.call('GET', `/api/users/${member.id}/profile`, { token: member.token });
    expect(profile.body.data).toMatchObject({ first_name: 'Ngozi', phone: '08059876543', gender: 'female', address: '12 Palm Avenue, Ikeja, Lagos', has_profile: true });

    // ── upgrade: no package chosen, then the summary of one ──
    await page.getByTestId('upgrade-pay-card').click();
    await expectToast(page, 'Select a package for upgrade');
    await page.getByTestId('upgrade-package-select').click();
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual([expect.stringMatching(/^Silver/), expect.stringMatching(/^Gold/), expect.stringMatching(/^Diamond/), expect.stringMatching(/^Crown/)]);
    await page.getByRole('option', { name: /^Silver/ }).click();
    await expect.poll(() => page.getByTestId('upgrade-amount').textContent()).toBe('₦35,000.00');
    await fullShot(page, 'profile-desktop');

    // ── Bank Details ──
    await page.getByRole('tab', { name: 'Bank Details' }).click();
    // The form's schema loads after the page is drawn (lib/lazy-resolver.ts): the same messages as before.
    await page.getByRole('button', { name: 'Verify account' }).click();
    await page.getByText('The bank name field is required.').waitFor();
    await page.getByText('The account number field is required.').waitFor();
    await page.getByTestId('bank-select').click();
    await page.getByRole('option', { name: 'Test Bank' }).click();
    // Pasted from a banking app with spaces around it: all ten digits stay (a maxLength of 10 cut the last one).
    await pasteInto(page, page.locator('input[name=account_number]'), ' 0123456789 ');
    await expect.poll(() => page.locator('input[name=account_number]').inputValue()).toBe('0123456789');
    await page.getByRole('button', { name: 'Verify account' }).click();
    await expect.poll(() => page.getByTestId('account-name').inputValue()).toBe('TEST ACCOUNT 6789');
    await fullShot(page, 'profile-bank-verified');
    await page.getByRole('button', { name: 'Save bank details' }).click();
    await expectToast(page, 'Bank details updated successfully');
    await expect.poll(() => page.getByTestId('bank-account-summary').textContent()).toContain('TEST ACCOUNT 6789');
    await page.getByTestId('bank-locked').waitFor();
    await fullShot(page, 'profile-bank-locked');
    const details = await app.http.call('GET', `/api/users/${member.id}/profile-details`, { token: member.token });
    expect(details.body.data).toMatchObject({ bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789', bank_account_name: 'TEST ACCOUNT 6789', bank_editable: false });

    // ── Security: 2FA ──
    await page.getByRole('link', { name: 'Security' }).click();
    await page.waitForURL(/\/user\/security$/);
    await expect.poll(() => page.getByTestId('two-factor-state').textContent()).toBe('Off');
    await page.getByRole('switch', { name: 'Two-factor authentication' }).click();
    await expectToast(page, 'Two-factor sign-in is on');
    await expect.poll(() => page.getByTestId('two-factor-state').textContent()).toBe('On');
    const me = await app.http.call('GET', '/api/auth/user', { token: member.token });
    expect(me.body.data.enable_2fa).toBe(true);
    await fullShot(page, 'security-2fa-desktop');

    // ── Security: change password in two steps ──
    await page.getByRole('tab', { name: 'Change Password' }).click();
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('The old password field is required.').waitFor();
    await page.locator('input[name=old_password]').fill(member.password);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expectToast(page, 'Change password code has been sent to your email address');
    const code = await codeMailedTo(app.t.mail, member.email, /password change/i);
    // Pasted from the mail with a space before it: the six digits stay whole.
    await pasteInto(page, page.locator('input[name=code]'), ` ${code}`);
    await expect.poll(() => page.locator('input[name=code]').inputValue()).toBe(code);
    await page.locator('input[name=password]').fill('new green leaves 2026');
    await fullShot(page, 'security-change-password-desktop');
    await page.getByRole('button', { name: 'Change password', exact: true }).click();
    await expectToast(page, 'Password has been changed successfully');

    const withNew = await app.http.call('POST', '/api/auth/login', { body: { username: member.username, password: 'new green leaves 2026' } });
    expect(withNew.status, withNew.body.message).toBe(200);
    const withOld = await app.http.call('POST', '/api/auth/login', { body: { username: member.username, password: member.password } });
    expect(withOld.status).not.toBe(200);
  }, 150_000);

  it('upgrades the package by card from the profile: verified as soon as the provider’s page returns', async () => {
    const member = await activeMember(app);
    const page = await app.newPage();
    await signIn(page, app.base, member, /\/user\/dashboard/);
    await page.goto(`${app.base}/user/profile`);
    await page.getByTestId('upgrade-package-select').click();
    await page.getByRole('option', { name: /^Gold/ }).click();
    await expect.poll(() => page.getByTestId('upgrade-amount').textContent()).toBe('₦105,000.00');
    await page.getByTestId('upgrade-pay-card').click();
    const checkout = page.frameLocator('iframe[title="Payment page"]');
    await checkout.getByRole('button', { name: /^Pay ₦105,000/ }).click();
    await expectToast(page, 'Payment Verified successfully');
    await expect.poll(() => page.getByTestId('profile-package').textContent()).toBe('Gold');
    await expect.poll(() => page.getByRole('table', { name: 'Upgrade history' }).textContent()).toContain('Bronze → Gold');
    await fullShot(page, 'profile-after-upgrade');
    const me = await app.http.call('GET', '/api/auth/user', { token: member.token });
    expect(me.body.data.package_id).toBe(4);
  });

  it('shows the profile, bank and security screens on a phone', async () => {
    const member = await activeMember(app);
    const page = await app.newPage(phone);
    await signIn(page, app.base, member, /\/user\/dashboard/);
    await page.goto(`${app.base}/user/profile`);
    await page.getByTestId('profile-card').waitFor();
    await page.getByRole('form', { name: 'Edit profile' }).waitFor();
    await screenfuls(page, 'profile-phone');
    await page.goto(`${app.base}/user/profile?tab=bank`);
    await page.getByTestId('bank-select').waitFor();
    await screenfuls(page, 'profile-bank-phone');
    await page.goto(`${app.base}/user/security?tab=password`);
    await page.locator('input[name=old_password]').waitFor();
    await screenfuls(page, 'security-phone');
    await page.getByLabel('Toggle sidebar').click();
    await page.getByRole('link', { name: 'Security' }).waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${shots}/nav-phone.png` });
  });
});
