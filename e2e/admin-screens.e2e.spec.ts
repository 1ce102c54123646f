import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoLogins } from '../services/src/seed/demo-company';
import { settleConsumers } from '../services/test/consumers';
import { type MemberAppTest, desktop, fullShot, phone, signInAdmin, startMemberApp, screenshotOnFailure } from './member-app';

/**
 * Back-office screens shared with the member app or made to fit a phone: the member's placement
 * tree as the same pannable org chart the member sees (re-rooting on a downline), and every list
 * at 390 px keeping the columns that matter with the rest behind each row's detail panel.
 */
let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => {
  await app?.close();
});
afterEach(screenshotOnFailure(() => app));

const node = (page: Page, username: string) => page.locator(`[data-testid="genealogy-node"][data-username="${username}"]`);

/** The page is no wider than the window: nothing makes the reader scroll sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('back-office screens', () => {
  it('shows a member’s placement tree as the member’s org chart and re-roots on a downline', { timeout: 120_000 }, async () => {
    const ada = await app.http.activeMember({ first_name: 'Ada', last_name: 'Eze' }, { asParent: true });
    const bola = await app.http.activeMember({ first_name: 'Bola', last_name: 'Ade', referrer: ada.username }, { asParent: true });
    await settleConsumers(app.t.runtime.db);
    const chike = await app.http.activeMember({ first_name: 'Chike', last_name: 'Obi', referrer: bola.username });
    await settleConsumers(app.t.runtime.db);

    for (const [size, options] of [['desktop', desktop], ['phone', phone]] as const) {
      const page = await app.newPage(options);
      await signInAdmin(page, app.base, demoLogins.admin);
      await page.goto(`${app.base}/admin/members/${ada.id}/show/genealogy`);
      const chart = page.getByTestId('placement-tree');
      await expect.poll(() => node(page, ada.username).count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => chart.locator(`[data-testid="genealogy-node"][data-parent="${ada.username}"]`).getAttribute('data-username')).toBe(bola.username);
      await expect.poll(() => chart.locator(`[data-testid="genealogy-node"][data-parent="${bola.username}"]`).getAttribute('data-username')).toBe(chike.username);
      await expect.poll(() => page.getByTestId('direct-downlines').textContent()).toContain('Bola Ade');
      expect(await pageWidth(page)).toBeLessThanOrEqual(options.viewport!.width);
      await fullShot(page, `admin-genealogy-chart-${size}`);

      // Choosing Bola puts her at the top: Ada leaves the chart, the trail leads back.
      await node(page, bola.username).click();
      await expect.poll(() => node(page, ada.username).count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => page.getByTestId('genealogy-trail').textContent()).toContain(`@${ada.username}`);
      await expect.poll(() => chart.locator(`[data-testid="genealogy-node"][data-parent="${bola.username}"]`).getAttribute('data-username')).toBe(chike.username);
      await fullShot(page, `admin-genealogy-rerooted-${size}`);
      await page.getByRole('button', { name: 'Up one level' }).click();
      await expect.poll(() => node(page, ada.username).count()).toBe(1);
      await page.context().close();
    }
  });

  it('fits every list on a phone: the columns that matter, the rest in the row’s details', { timeout: 120_000 }, async () => {
    const member = await app.http.activeMember({ first_name: 'Ngozi', last_name: 'Umeh' });
    await settleConsumers(app.t.runtime.db);
    const page = await app.newPage(phone);
    await signInAdmin(page, app.base, demoLogins.admin);

    await page.goto(`${app.base}/admin/members`);
    const row = page.locator('tbody tr').filter({ hasText: 'Ngozi Umeh' });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    // The e-mail is not a column on a phone; it is in the row's details.
    expect(await page.locator('thead').textContent()).not.toContain('E-mail');
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await row.locator('[aria-label="Expand"]').click();
    await expect.poll(() => page.getByTestId('row-details').textContent()).toContain(member.email);
    await fullShot(page, 'admin-members-phone');

    const lists = [
      'package-payments', 'registrations', 'upgrades', 'withdrawals', 'incentive-claims', 'incentives', 'ranks', 'product-sales',
      'matching-cycles', 'global-profit-runs', 'profit-pool-runs', 'packages', 'products', 'company-banks', 'stockist-packages',
    ];
    for (const list of lists) {
      await page.goto(`${app.base}/admin/${list}`);
      await expect.poll(() => page.locator('#main-content').count(), { message: list, timeout: 15_000 }).toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      expect({ list, width: await pageWidth(page) }).toEqual({ list, width: 390 });
      await fullShot(page, `admin-list-phone-${list}`);
    }

    // At desktop width the same list keeps every column.
    const wide = await app.newPage(desktop);
    await signInAdmin(wide, app.base, demoLogins.admin);
    await wide.goto(`${app.base}/admin/members`);
    await expect.poll(() => wide.locator('thead').textContent(), { timeout: 15_000 }).toContain('E-mail');
    await fullShot(wide, 'admin-members-desktop');
  });
});
