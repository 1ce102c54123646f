import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { type TestApp, createTestApp } from '../services/test/app';
import { launchBrowser } from './browser';
import { desktop, fullShot, shots, signInAdmin } from './member-app';

/**
 * The back office's answer to refusals (issue 12): only a session that is gone (401, or a 403
 * refusing the token as no admin's) logs the admin out; a 403 for a forbidden action shows the
 * server's message and keeps the session. And finance staff never see a create or edit form,
 * even reached by its address: the page renders nothing of the form until canAccess says yes
 * (web-admin/src/common/writePage.tsx), watched here by a MutationObserver from the first paint.
 */
let t: TestApp;
let browser: Browser;
let base: string;
const pages: Page[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext(desktop);
  const page = await context.newPage();
  page.setDefaultTimeout(45_000);
  pages.push(page);
  return page;
}

const token = (page: Page) => page.evaluate(() => Object.entries(window.localStorage).find(([key]) => /token/i.test(key))?.[1] ?? null);

beforeAll(async () => {
  const dist: Record<string, string> = process.env.WEB_ADMIN_DIST ? { WEB_ADMIN_DIST: process.env.WEB_ADMIN_DIST } : {};
  t = await createTestApp({ listen: true, env: dist });
  base = t.runtime.config.publicUrl;
  browser = await launchBrowser();
  mkdirSync(shots, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await pages.at(-1)?.screenshot({ path: `${shots}/failed-admin-access-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

describe('refusals in the back office', () => {
  it('a 403 for a forbidden action shows its message and keeps the session; a 401 signs the admin out', async () => {
    const page = await newPage();
    await signInAdmin(page, base, demoLogins.admin);
    const signedIn = await token(page);
    expect(signedIn).not.toBeNull();
    // The packages list answered with the api's refusal of an action (requireAdmin('write')'s 403).
    await page.route('**/api/admin/packages?**', (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Finance staff may read but not change this.' }) }),
    );
    await page.goto(`${base}/admin/packages`);
    await page.getByText('Finance staff may read but not change this.').first().waitFor();
    expect(page.url()).toContain('/admin/packages');
    expect(await token(page)).toBe(signedIn);
    await fullShot(page, 'admin-access-forbidden-1280');

    // A session that is gone: the same list answered 401.
    await page.unroute('**/api/admin/packages?**');
    await page.route('**/api/admin/packages?**', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Your session has ended. Please sign in again.' }) }),
    );
    await page.goto(`${base}/admin/ranks`);
    await page.goto(`${base}/admin/packages`);
    await page.waitForURL(/\/admin-login/);
    expect(await token(page)).toBeNull();
  }, 240_000);

  it('finance reaching a create or edit page by its address never sees a form, only "Access denied"', async () => {
    const page = await newPage();
    // From the very first paint of every page: any form or Save button ever rendered is recorded.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { formsSeen: string[] }).formsSeen = seen;
      // Every node ever added, even one removed again before the callback runs (a form rendered
      // for one frame between canAccess's "no" and the redirect): a removed node keeps its subtree.
      new MutationObserver((records) => {
        // Each page.goto below is a fresh document: it shows the create or edit route, then "Access denied".
        if (location.pathname.startsWith('/admin-login')) return;
        for (const record of records) {
          for (const node of Array.from(record.addedNodes)) {
            if (!(node instanceof Element)) continue;
            if (node.matches('form') || node.querySelector('form')) seen.push(`${location.pathname}: form`);
            for (const button of [node, ...Array.from(node.querySelectorAll('button'))]) {
              if (button.matches('button') && /save/i.test(button.textContent ?? '')) seen.push(`${location.pathname}: ${button.textContent}`);
            }
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await signInAdmin(page, base, demoLogins.finance);
    for (const path of ['incentives/create', 'ranks/create', 'packages/create', 'products/create', 'company-banks/create', 'stockist-packages/create', 'packages/1', 'ranks/1', 'incentives/1', 'products/1']) {
      await page.goto(`${base}/admin/${path}`);
      await page.getByText('Access denied').first().waitFor();
      expect(await page.evaluate(() => (window as unknown as { formsSeen: string[] }).formsSeen), path).toEqual([]);
    }
    await fullShot(page, 'admin-access-finance-denied-1280');
  }, 300_000);
});
