import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { settleConsumers } from '../services/test/consumers';
import { type MemberAppTest, confirmInDialog, expectToast, fullShot, phone, screenfuls, shots, signIn, signInAdmin, startMemberApp } from './member-app';

/**
 * Bonuses held for an upline whose own registration payment awaits an admin (BUSINESS-RULES.md §3
 * "Trees"), on screen: P uploads a receipt; Q, registered under P, pays and is approved; P's welcome
 * page says what waits for the approval; the back office's Payment Approvals says what approving P's
 * payment releases; the admin approves; P's wallet shows the line Held until the worker settles it,
 * then credited with the "held until approved" explanation.
 */
let app: MemberAppTest;
type Member = Awaited<ReturnType<MemberAppTest['http']['registeredMember']>>;
let p: Member;
let q: Member;

beforeAll(async () => {
  app = await startMemberApp();
  p = await app.http.registeredMember({ first_name: 'Patience', last_name: 'Obi', referrer: 'herbalhq' }, { asParent: true });
  await app.http.uploadReceipt(p);
  q = await app.http.registeredMember({ first_name: 'Quadri', last_name: 'Lawal', referrer: p.username });
  await app.http.payByReceipt(q);
  await settleConsumers(app.t.runtime.db);
}, 120_000);
afterAll(async () => {
  await app?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-held-bonuses-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

const row = (page: Page, text: string) => page.locator('tbody tr', { hasText: text });
const WAITING = /₦3,500 waiting for your payment[’']s approval/;

describe('bonuses held for a payment awaiting approval', () => {
  it('an unpaid member with nothing held sees no notice', async () => {
    const alone = await app.http.registeredMember({ first_name: 'Nobody', last_name: 'Referred' });
    await app.http.uploadReceipt(alone);
    const page = await app.newPage();
    await signIn(page, app.base, alone, /\/welcome/);
    await page.getByTestId('receipt-awaiting-approval').waitFor();
    // The held bonuses were read (the request answered) and nothing is shown.
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/held-bonuses')))).toBe(true);
    expect(await page.getByTestId('held-bonuses').count()).toBe(0);
  });

  it('welcome notice → release note in approvals → approved → Held in the wallet → credited, held until approved', async () => {
    // P's welcome page: what waits, and why.
    const page = await app.newPage();
    await signIn(page, app.base, p, /\/welcome/);
    const notice = page.getByTestId('held-bonuses');
    await notice.waitFor();
    await expect.poll(() => page.getByTestId('held-bonuses-title').textContent()).toMatch(WAITING);
    const lines = notice.getByTestId('held-bonus-line');
    await expect.poll(() => lines.count()).toBe(1);
    const line = await lines.first().textContent();
    expect(line).toContain('Referral bonus');
    expect(line).toContain(`Earned through ${q.username}`);
    expect(line).toContain('₦3,500.00');
    expect(await notice.textContent()).toContain('credited to your wallet as soon as an administrator approves your registration payment');
    await page.getByTestId('receipt-awaiting-approval').waitFor();
    await fullShot(page, 'held-bonuses-welcome');

    const onPhone = await app.newPage(phone);
    await signIn(onPhone, app.base, p, /\/welcome/);
    await onPhone.getByTestId('held-bonuses').waitFor();
    await expect.poll(() => onPhone.getByTestId('held-bonuses-title').textContent()).toMatch(WAITING);
    await screenfuls(onPhone, 'held-bonuses-welcome-phone', 3);

    // The back office: approving P's payment releases the held ₦3,500; Q's decided payment says nothing.
    const admin = await app.newPage();
    await signInAdmin(admin, app.base, demoLogins.admin);
    await admin.goto(`${app.base}/admin/package-payments`);
    await row(admin, p.username).waitFor();
    await expect.poll(() => row(admin, p.username).getByTestId('held-release').textContent()).toBe('Approving releases ₦3,500.00 of held bonuses');
    await fullShot(admin, 'held-bonuses-admin-approvals');
    const heldNote = '₦3,500.00 of bonuses held for them until this payment is decided are credited to their wallet';
    await confirmInDialog(admin, { open: () => row(admin, p.username).getByRole('button', { name: 'Approve' }).click(), text: heldNote, shot: 'held-bonuses-admin-confirm' });
    await expectToast(admin, 'Payment approved successfully');
    await expect.poll(() => row(admin, p.username).count()).toBe(0);
    await admin.getByTestId('tab-history').click();
    await row(admin, p.username).waitFor();
    expect(await row(admin, p.username).getByTestId('held-release').count()).toBe(0);

    // Approved, before the worker settles the hold: P's wallet shows the line Held and the held total.
    await page.goto(`${app.base}/user/wallet`);
    const held = page.locator('tbody tr[data-entry="held"]');
    await held.first().waitFor();
    expect(await held.count()).toBe(1);
    const heldText = await held.first().textContent();
    expect(heldText).toContain('Held');
    expect(heldText).toContain('₦3,500.00');
    expect(heldText).toContain(`${q.username}'s activation`);
    await expect.poll(() => page.getByTestId('wallet-total-held').textContent()).toBe('₦3,500.00 held until your registration payment is approved');
    await fullShot(page, 'held-bonuses-wallet-held');
    await onPhone.goto(`${app.base}/user/wallet`);
    await onPhone.locator('tbody tr[data-entry="held"]').first().waitFor();
    await screenfuls(onPhone, 'held-bonuses-wallet-held-phone', 3);

    // The worker settles: credited, with the explanation, and nothing held any more.
    await settleConsumers(app.t.runtime.db);
    await page.reload();
    const credited = page.locator('tbody tr[data-entry="credited"]', { hasText: 'Referral bonus' });
    await credited.first().waitFor();
    await expect.poll(() => page.locator('tbody tr[data-entry="held"]').count()).toBe(0);
    const creditedText = await credited.first().textContent();
    expect(creditedText).toContain(`${q.username}'s activation, generation 1: 10% of ₦35,000`);
    expect(creditedText).toContain('It was held until your registration payment was approved.');
    expect(creditedText).toContain('₦3,500.00');
    expect(await page.getByTestId('wallet-total-held').count()).toBe(0);
    await fullShot(page, 'held-bonuses-wallet-credited');

    await onPhone.goto(`${app.base}/user/wallet`);
    await onPhone.locator('tbody tr[data-entry="credited"]', { hasText: 'Referral bonus' }).first().waitFor();
    await screenfuls(onPhone, 'held-bonuses-wallet-phone', 3);
  }, 180_000);
});
