import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dueCycleEnds } from '../services/src/matching/policies';
import { demoLogins } from '../services/src/seed/demo-company';
import { companyDate } from '../services/src/wallet/payout-schedule';
import { settleConsumers } from '../services/test/consumers';
import { type MemberAppTest, confirmInDialog, expectToast, fullShot, phone, screenfuls, shots, signIn, signInAdmin, startMemberApp } from './member-app';

/**
 * Issue 14 items 3 and 5 in a real browser: the back office's Matching Cycles (close the due cycle
 * by hand, once; a cycle's members' results), the periodic shares' lists with their "Share due"
 * action, finance staff without those controls, and the member's matching explanation on the
 * dashboard and the wallet, at desktop and phone widths.
 */
let app: MemberAppTest;
type Member = Awaited<ReturnType<MemberAppTest['http']['activeMember']>>;
let A: Member;
let AL: Member;
let latest: string;

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
const settle = () => settleConsumers(app.t.runtime.db);
const pairsText = (pairs: number) => (pairs === 0 ? 'No pair yet' : pairs === 1 ? '1 pair now' : `${pairs} pairs now`);

beforeAll(async () => {
  app = await startMemberApp();
  const h = app.http;
  // Seeded plan: a pair is 100 PV, 1 PV = ₦1,000, 10%. Bronze 25 PV (cap ₦100,000), Silver 50, Gold 100.
  // root ─L─ A (Bronze) ─L─ AL (Gold) ─L─ Gold
  //                     │              └R─ X (never paid) ─L─ Gold
  //                     └R─ AR (Silver) ─L─ Gold
  // At the close: A's legs 100 + 100 + 0 + 100 = 300 / 50 + 100 = 150 → 1 pair paid, 200 / 50 carry.
  // AL's legs 100 / 100 → 1 pair, but X never paid: not qualified, both legs carry whole.
  A = await h.activeMember({ referrer: 'herbalhq', package_id: 2, first_name: 'Amaka', last_name: 'Obi' }, { asParent: true });
  AL = await h.activeMember({ referrer: A.username, package_id: 4, first_name: 'Tunde', last_name: 'Bello' }, { asParent: true });
  const AR = await h.activeMember({ referrer: A.username, package_id: 3 }, { asParent: true });
  await h.activeMember({ referrer: AL.username, package_id: 4 });
  const X = await h.registeredMember({ referrer: AL.username, package_id: 2 }, { asParent: true });
  await h.activeMember({ referrer: X.username, package_id: 4 });
  await h.activeMember({ referrer: AR.username, package_id: 4 });
  await settle();
  latest = dueCycleEnds({ today: companyDate(app.t.clock.now), frequencyDays: 7, lastClosed: null })[0]!;
}, 180_000);
afterAll(async () => {
  await app?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-matching-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

describe('matching cycles in the back office', () => {
  it('an admin closes the due cycle by hand once, sees it paid with who closed it, and opens its members’ results', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.getByRole('menuitem', { name: 'Matching Cycles' }).click();
    await page.waitForURL(/\/admin\/matching-cycles/);
    await page.getByText('No matching cycle has been closed yet.').waitFor();

    await confirmInDialog(page, { open: () => page.getByTestId('close-due-cycle').first().click(), text: 'Close the due matching cycle?' });
    await expectToast(page, `Closed the matching cycle ending ${latest}. Its bonuses are being paid.`);
    const row = page.locator('tbody tr').filter({ hasText: latest });
    await row.waitFor();
    expect(await row.textContent()).toContain('Demo Administrator');

    // The worker pays it; the list shows the totals after a refresh.
    await settle();
    await page.getByRole('button', { name: 'Refresh' }).first().click();
    await poll(async () => (await row.textContent()) ?? '').toContain('₦10,000.00');
    await fullShot(page, 'admin-matching-cycles');

    // A second click: already closed.
    await confirmInDialog(page, { open: () => page.getByTestId('close-due-cycle').first().click(), text: 'Close the due matching cycle?' });
    await expectToast(page, `The matching cycle ending ${latest} is already closed.`);
    expect(await page.locator('tbody tr').count()).toBe(1);

    await row.click();
    await page.waitForURL(new RegExp(`/admin/matching-cycles/${latest}/show`));
    await page.getByText(`Matching cycle ending ${latest}`).first().waitFor();
    const aRow = page.locator('tbody tr').filter({ hasText: A.username });
    await aRow.waitFor();
    expect(await aRow.textContent()).toContain('Paid');
    expect(await aRow.textContent()).toContain('300 / 150');
    expect(await aRow.textContent()).toContain('200 / 50');
    const alRow = page.locator('tbody tr').filter({ hasText: AL.username });
    expect(await alRow.textContent()).toContain('Not qualified');
    expect(await alRow.textContent()).toContain('Needs an active placement child on each leg');
    await fullShot(page, 'admin-matching-cycle-show');

    const mobile = await app.newPage(phone);
    await signInAdmin(mobile, app.base, demoLogins.admin);
    await mobile.goto(`${app.base}/admin/matching-cycles/${latest}/show`);
    await mobile.getByText(AL.username).first().waitFor();
    await screenfuls(mobile, 'admin-matching-cycle-show-phone', 3);
    await mobile.goto(`${app.base}/admin/matching-cycles`);
    await mobile.getByText(latest).first().waitFor();
    await fullShot(mobile, 'admin-matching-cycles-phone');
  }, 120_000);

  it('an admin shares the due profit pool from its list; finance staff see the lists with no such controls', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.getByRole('menuitem', { name: 'Profit Pools' }).click();
    await page.waitForURL(/\/admin\/profit-pool-runs/);
    // The list loads with the button in its toolbar, then shows its empty state with the button in it:
    // a dialog opened from the toolbar's button is unmounted with it, so open it once the list has settled.
    await page.getByText('No profit pool has been shared yet.').waitFor();
    await confirmInDialog(page, { open: () => page.getByTestId('run-due-pool').first().click(), text: "Share last month's profit pool?" });
    await expectToast(page, /^Shared the profit pool of \d{4}-\d{2}\./);
    await page.locator('tbody tr').filter({ hasText: 'Demo Administrator' }).waitFor();
    await fullShot(page, 'admin-profit-pools');
    await page.getByRole('menuitem', { name: 'Global Profit Shares' }).click();
    await page.waitForURL(/\/admin\/global-profit-runs/);
    await page.getByText('No global profit has been shared yet.').waitFor();

    const financePage = await app.newPage();
    await signInAdmin(financePage, app.base, demoLogins.finance);
    await financePage.goto(`${app.base}/admin/matching-cycles`);
    await financePage.locator('tbody tr').filter({ hasText: latest }).waitFor();
    expect(await financePage.getByTestId('close-due-cycle').count()).toBe(0);
    await financePage.goto(`${app.base}/admin/profit-pool-runs`);
    await financePage.locator('tbody tr').first().waitFor();
    expect(await financePage.getByTestId('run-due-pool').count()).toBe(0);
    await financePage.goto(`${app.base}/admin/global-profit-runs`);
    await financePage.getByText('No global profit has been shared yet.').waitFor();
    expect(await financePage.getByTestId('run-due-global').count()).toBe(0);
  }, 120_000);
});

describe("the member's matching explanation", () => {
  it('shows the standing legs, the pairs now, the last cycle and the next close on the dashboard and the wallet', async () => {
    const status = (await app.http.call('GET', '/api/bonuses/matching-status', { token: A.token })).body.data;
    const page = await app.newPage();
    await signIn(page, app.base, A, /\/user\/dashboard/);
    const card = page.getByTestId('matching-card');
    await card.waitFor();
    await poll(() => text(page, 'matching-left')).toBe(`${status.left_pv} PV`);
    expect(await text(page, 'matching-right')).toBe(`${status.right_pv} PV`);
    expect(await text(page, 'matching-last-cycle')).toBe(status.last_cycle.text);
    expect(await text(page, 'matching-summary')).toBe(status.summary);
    expect(await text(page, 'matching-next-close')).toContain('Next close:');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `${shots}/member-matching-card.png` });
    await fullShot(page, 'member-dashboard-matching');

    await page.getByRole('link', { name: 'Wallet' }).click();
    await page.getByTestId('matching-compact').waitFor();
    await poll(() => text(page, 'matching-compact-left')).toBe(`${status.left_pv} PV`);
    expect(await text(page, 'matching-compact-pairs')).toBe(pairsText(status.pairs_now));
    await fullShot(page, 'member-wallet-matching');

    // AL's own figures, on a phone: X, its right child, never paid, so not paid until qualified.
    const mobile = await app.newPage(phone);
    await signIn(mobile, app.base, AL, /\/user\/dashboard/);
    const alCard = mobile.getByTestId('matching-card');
    await alCard.waitFor();
    await poll(() => text(mobile, 'matching-payable')).toBe('Not paid until you qualify');
    expect(await text(mobile, 'matching-summary')).toContain('To be paid you need an active member placed directly on each of your legs');
    await alCard.scrollIntoViewIfNeeded();
    await mobile.screenshot({ path: `${shots}/member-matching-card-phone.png` });
  }, 120_000);
});
