import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, fullShot, phone, shots, signInAdmin, startMemberApp } from './member-app';

/**
 * The back office writes every date one way (issue 11 item 4; web-admin/src/common/dates.ts): a
 * day "22 Nov 2026", a moment "22 Nov 2026, 5:47 am" (the event log to the second), in Lagos time.
 */
let app: MemberAppTest;
beforeAll(async () => {
  app = await startMemberApp();
}, 120_000);
afterAll(async () => app?.close());
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-admin-dates-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

const DAY = /^\d{1,2} [A-Z][a-z]{2} \d{4}$/;
const INSTANT = /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}:\d{2} [ap]m$/;
/** Today in Lagos as the back office writes it: the demo company's root joined when the app was seeded. */
const lagosToday = () => new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Africa/Lagos' });

describe('back-office dates', () => {
  it('writes the members list’s joining days and the event log’s moments in the one format, at 1280 and 390', { timeout: 180_000 }, async () => {
    for (const [options, width] of [[undefined, 'desktop'], [phone, 'phone']] as const) {
      const page = await app.newPage(options);
      await signInAdmin(page, app.base, demoLogins.admin);

      await page.goto(`${app.base}/admin/members`);
      const days = page.locator('td.column-created_at');
      if (width === 'desktop') {
        await expect.poll(() => days.count(), { timeout: 15_000 }).toBeGreaterThan(0);
        const written = (await days.allTextContents()).map((text) => text.trim()).filter(Boolean);
        for (const text of written) expect(text).toMatch(DAY);
        expect(written).toContain(lagosToday());
      } else {
        // On a phone the joining day sits in the row's detail (not opened here): the list is shown.
        await page.getByText('Herbal Headquarters').first().waitFor({ timeout: 15_000 });
      }
      await fullShot(page, `admin-dates-members-${width}`);

      await page.goto(`${app.base}/admin/events`);
      await expect.poll(async () => (await page.locator('body').innerText()).match(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}:\d{2} [ap]m/g)?.length ?? 0, { timeout: 15_000 }).toBeGreaterThan(0);
      const moments = (await page.locator('body').innerText()).match(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}:\d{2} [ap]m/g) ?? [];
      for (const moment of moments) expect(moment).toMatch(INSTANT);
      // No date left in another style (ISO, US or 24-hour clock) anywhere on the page.
      expect(await page.locator('body').innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T|\d{1,2}\/\d{1,2}\/\d{4}/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
      await fullShot(page, `admin-dates-events-${width}`);
    }
  });
});
