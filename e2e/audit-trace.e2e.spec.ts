import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { settleConsumers } from '../services/test/consumers';
import { type MemberAppTest, fullShot, phone, screenfuls, shots, signIn, signInAdmin, startMemberApp } from './member-app';

/**
 * Finance staff audit a naira (docs/audit.md): from a member's wallet line of a referral bonus,
 * through the chain of events behind it, to the admin's approval of the recruit's payment; the
 * event log explorer filtered to the member; a stream's timeline.
 */
let app: MemberAppTest;
type Member = Awaited<ReturnType<MemberAppTest['http']['registeredMember']>>;
let sponsor: Member;
let recruit: Member;
let paymentId: string;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

beforeAll(async () => {
  app = await startMemberApp();
  sponsor = await app.http.registeredMember({ referrer: 'herbalhq', package_id: 2, first_name: 'Ngozi', last_name: 'Eze' }, { asParent: true });
  await app.http.payByReceipt(sponsor);
  recruit = await app.http.registeredMember({ referrer: sponsor.username, package_id: 2, first_name: 'Tunde', last_name: 'Bello' });
  paymentId = await app.http.payByReceipt(recruit);
  // The worker's part: the compensation policy pays the referral bonus, the ledger projects it.
  await settleConsumers(app.t.runtime.db);
}, 120_000);
afterAll(async () => {
  await app?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-audit-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

describe('trace a naira, as finance staff', () => {
  it("goes from the member's referral bonus line to the events behind it and reaches the approved payment", async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/members/${sponsor.id}/show/wallet`);
    await page.getByTestId('wallet-statement-tab').click();
    // The statement: Ngozi's own welcome bonus (2% of ₦35,000 = ₦700) and the referral bonus for
    // Tunde (10% of ₦35,000 = ₦3,500), balanced.
    await poll(() => text(page, 'statement-credits')).toContain('₦4,200.00');
    expect(await text(page, 'statement-opening')).toContain('₦0.00');
    expect(await text(page, 'statement-closing')).toContain('₦4,200.00');
    const line = page.locator('[data-testid^="statement-line-"]', { hasText: 'Referral bonus' });
    await poll(() => line.count()).toBe(1);
    expect(await line.textContent()).toContain(`${recruit.username}'s activation`);
    expect(await page.getByTestId('statement-csv').isEnabled()).toBe(true);
    await fullShot(page, 'audit-statement-desktop');

    await line.getByRole('link', { name: /trace/i }).click();
    await page.waitForURL(/\/admin\/trace\/\d+$/);
    await poll(() => text(page, 'trace-summary-0')).toContain(`Referral bonus for ${recruit.username}'s activation`);
    expect(await text(page, 'trace-summary-0')).toContain('10% of ₦35,000');
    // The formula's inputs, money in naira beside the kobo.
    expect(await text(page, 'trace-inputs-0')).toContain('₦35,000.00');
    expect(await text(page, 'trace-step-1')).toContain('MemberActivated');
    expect(await text(page, 'trace-step-2')).toContain('PackagePaymentApproved');
    expect(await page.getByTestId('trace-step-2').getByTestId('trace-root').isVisible()).toBe(true);
    expect(await text(page, 'trace-step-2')).toContain('admin@herbal-portal.test');
    await fullShot(page, 'audit-trace-desktop');

    // The root is the admin's approval of Tunde's payment, with the activation it caused.
    await page.getByTestId('trace-step-link-2').click();
    await page.waitForURL(/\/admin\/events\/\d+\/show$/);
    await poll(() => text(page, 'event-type')).toContain('PackagePaymentApproved');
    expect(await page.getByText(`package-payment-${paymentId}`).first().isVisible()).toBe(true);
    await poll(() => text(page, 'event-effects')).toContain('MemberActivated');
    expect(await text(page, 'event-integrity')).toMatch(/[0-9a-f]{64}/);
    // No write control anywhere for finance.
    expect(await page.getByRole('button', { name: /edit|delete|approve|save/i }).count()).toBe(0);
    await fullShot(page, 'audit-event-desktop');

    // From the activation, its effects include the bonus we started from; the stream opens as a timeline.
    await page.getByTestId('event-effects').getByRole('link', { name: /MemberActivated/ }).click();
    await poll(() => text(page, 'event-type')).toContain('MemberActivated');
    await poll(() => text(page, 'event-effects')).toContain('BonusCredited');
    expect(await text(page, 'event-cause')).toContain('PackagePaymentApproved');
    await page.getByRole('link', { name: /stream timeline/i }).click();
    await page.waitForURL(/\/admin\/streams\//);
    await poll(() => text(page, 'timeline-1')).toContain('MemberRegistered');
    await fullShot(page, 'audit-timeline-desktop');
  }, 150_000);

  it('lists every event about the member in the explorer, and traces a wallet line from there', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/events?filter=${encodeURIComponent(JSON.stringify({ member_id: sponsor.id }))}`);
    const rows = page.locator('tbody tr');
    await poll(() => rows.count()).toBeGreaterThan(3);
    await poll(async () => (await page.locator('tbody').textContent()) ?? '').toContain(`member-${recruit.id}`);
    await fullShot(page, 'audit-explorer-desktop');
    const bonusRow = rows.filter({ hasText: 'BonusCredited' }).first();
    await bonusRow.getByRole('link', { name: /trace/i }).click();
    await poll(() => text(page, 'trace-step-2')).toContain('PackagePaymentApproved');

    const mobile = await app.newPage(phone);
    await signInAdmin(mobile, app.base, demoLogins.finance);
    await mobile.goto(`${app.base}/admin/events?filter=${encodeURIComponent(JSON.stringify({ member_id: sponsor.id }))}`);
    await poll(() => mobile.getByText('BonusCredited', { exact: false }).count()).toBeGreaterThan(0);
    await screenfuls(mobile, 'audit-explorer-phone', 2);
    await mobile.goto(page.url());
    await poll(() => text(mobile, 'trace-step-2')).toContain('PackagePaymentApproved');
    await screenfuls(mobile, 'audit-trace-phone', 3);
    await mobile.goto(`${app.base}/admin/members/${sponsor.id}/show/wallet`);
    await mobile.getByTestId('wallet-statement-tab').click();
    await poll(() => text(mobile, 'statement-closing')).toContain('₦4,200.00');
    await screenfuls(mobile, 'audit-statement-phone', 3);
  }, 150_000);

  it('shows the member their own statement on their wallet page, balanced the same way', async () => {
    for (const [options, name] of [[undefined, 'desktop'], [phone, 'phone']] as const) {
      const page = await app.newPage(options);
      await signIn(page, app.base, sponsor, /\/user\/dashboard/);
      await page.goto(`${app.base}/user/wallet?tab=statement`);
      await poll(() => text(page, 'statement-closing')).toBe('₦4,200.00');
      expect(await text(page, 'statement-opening')).toBe('₦0.00');
      expect(await text(page, 'statement-lines')).toContain(`Referral bonus for ${recruit.username}'s activation`);
      await fullShot(page, `audit-member-statement-${name}`);
    }
  }, 150_000);
});
