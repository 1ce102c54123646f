import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createTestApp, type TestApp } from '../services/test/app';
import { httpHelpers } from '../services/test/http';
import { tinyPng } from '../services/test/multipart';
import { launchBrowser } from './browser';

/** Browser tests of the member app: the real api, database, mail capture and Paystack stand-in. */

export const shots = process.env.SCREENSHOT_DIR ?? '/tmp/e2e-shots';
export const receiptImage = tinyPng();
export const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
export const phone: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export interface MemberAppTest {
  t: TestApp;
  http: ReturnType<typeof httpHelpers>;
  browser: Browser;
  /** The app's own address, also its PUBLIC_URL: the card provider returns the browser there. */
  base: string;
  newPage: (options?: BrowserContextOptions) => Promise<Page>;
  lastPage: () => Page | undefined;
  close: () => Promise<void>;
}

export async function startMemberApp(): Promise<MemberAppTest> {
  // WEB_MEMBER_DIST: a build of one's own (helpers working in one checkout build to separate folders).
  const dist = {
    ...(process.env.WEB_MEMBER_DIST ? { WEB_MEMBER_DIST: process.env.WEB_MEMBER_DIST } : {}),
    ...(process.env.WEB_ADMIN_DIST ? { WEB_ADMIN_DIST: process.env.WEB_ADMIN_DIST } : {}),
  };
  const t = await createTestApp({ listen: true, env: dist });
  const base = t.runtime.config.publicUrl;
  const browser = await launchBrowser();
  mkdirSync(shots, { recursive: true });
  const pages: Page[] = [];
  return {
    t,
    http: httpHelpers(t),
    browser,
    base,
    async newPage(options = desktop) {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      // A busy 2-core machine (three browser files and their servers at once) needs more than Playwright's usual.
      page.setDefaultTimeout(20_000);
      page.setDefaultNavigationTimeout(30_000);
      pages.push(page);
      return page;
    },
    lastPage: () => pages.at(-1),
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/** Signs in through the login form and waits for the page the member lands on. */
export async function signIn(page: Page, base: string, member: { username: string; password: string }, lands: RegExp): Promise<void> {
  await page.goto(`${base}/login`);
  await page.locator('input[name=username]').fill(member.username);
  await page.locator('input[name=password]').fill(member.password);
  await page.getByRole('button', { name: /^login$/i }).click();
  await page.waitForURL(lands);
}

/**
 * Pastes `text` into a field as a person does (clipboard, then Ctrl+V): unlike fill(), a paste is
 * cut by the input's maxLength before the page sees it. The page's context needs clipboard-write.
 */
export async function pasteInto(page: Page, field: Locator, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await field.fill('');
  await field.focus();
  await page.keyboard.press('ControlOrMeta+V');
}

/** A full-page picture, taken from the top so the sticky bar and the drawer sit where a person sees them. */
export async function fullShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250);
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** A long page on a phone, one screenful per picture (name-1.png, name-2.png, ...). */
export async function screenfuls(page: Page, name: string, max = 6): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = (page.viewportSize()?.height ?? 800) - 120;
  for (let i = 0, y = 0; y < height && i < max; i++, y += step) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${shots}/${name}-${i + 1}.png` });
  }
}

/**
 * Opens a confirmation dialog with `open`, optionally photographs it, and presses its button once.
 * CI once saw a row's dialog vanish after its title had shown (the list under it re-rendered on a
 * loaded machine, taking the row's dialog with it): a dialog that is gone is opened again, and
 * the button is pressed only when it is there, so the command is sent once. If it still fails, the
 * error says what the page showed instead.
 */
export async function confirmInDialog(page: Page, step: { open: () => Promise<unknown>; text: string | RegExp; button?: string | RegExp; shot?: string }): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: step.text });
  const button = dialog.getByRole('button', { name: step.button ?? 'Confirm' });
  await step.open();
  let opened = 1;
  const shown = async () => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      if (await button.isVisible().catch(() => false)) return true;
      if (opened < 3 && (await page.getByRole('dialog').count()) === 0 && Date.now() > deadline - 25_000) {
        await step.open();
        opened++;
      }
      await page.waitForTimeout(100);
    }
    return false;
  };
  if (!(await shown())) throw new Error(`no dialog showing ${String(step.text)} with a ${String(step.button ?? 'Confirm')} button after ${opened} opening(s); the page (${page.url()}) shows ${await page.getByRole('dialog').count()} dialog(s) and reads: ${(await page.locator('body').innerText()).slice(0, 1500)}`);
  if (step.shot) {
    await fullShot(page, step.shot);
    if (!(await shown())) throw new Error(`the dialog showing ${String(step.text)} closed while it was photographed; the page reads: ${(await page.locator('body').innerText()).slice(0, 1500)}`);
  }
  await button.click({ timeout: 10_000 });
}

/** An afterEach hook: a failed test leaves a full-page picture of the last page it opened (failed-<test name>.png). */
export function screenshotOnFailure(app: () => MemberAppTest | undefined) {
  return async (context: { task: { name: string; result?: { state?: string } } }) => {
    if (context.task.result?.state === 'fail') {
      await app()?.lastPage()?.screenshot({ path: `${shots}/failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
    }
  };
}

/** A toast with this text appeared: notistack's in the member app, react-admin's MUI Snackbar in the back office. */
export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await expect.poll(() => page.locator('#notistack-snackbar, .MuiSnackbar-root').filter({ hasText: text }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
}

/** A registered member whose registration an admin approved from an uploaded receipt: active. */
export async function activeMember(app: MemberAppTest) {
  return app.http.activeMember();
}

/**
 * Signs an admin (or, with `demoLogins.finance`, a finance officer) in to the back office and waits
 * for its dashboard. The test app's demo accounts have no two-factor step.
 */
export async function signInAdmin(page: Page, base: string, account: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/admin-login`);
  await page.locator('input[name=email]').fill(account.email);
  await page.locator('input[name=password]').fill(account.password);
  await page.getByRole('button', { name: /sign in|log ?in/i }).click();
  await page.waitForURL(/\/admin(\/|$)/);
}
