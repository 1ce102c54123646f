import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codeMailedTo, createTestApp, type TestApp } from '../services/test/app';
import { demoLogins } from '../services/src/seed/demo-company';
import { launchBrowser } from './browser';

/**
 * The sign-in flows in a real browser against the real api, database and mail capture:
 * a member registers, confirms with the code read from the captured mail, signs in and lands
 * on the welcome page; an admin signs in to the back office.
 */
let t: TestApp;
let browser: Browser;
let base: string;
const shots = process.env.SCREENSHOT_DIR ?? '/tmp/e2e-shots';

beforeAll(async () => {
  // WEB_MEMBER_DIST: a build of one's own (e2e/member-app.ts).
  t = await createTestApp({ listen: true, ...(process.env.WEB_MEMBER_DIST ? { env: { WEB_MEMBER_DIST: process.env.WEB_MEMBER_DIST } } : {}) });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchBrowser();
  mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const pages: Page[] = [];
async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.setDefaultNavigationTimeout(30_000);
  pages.push(page);
  return page;
}

afterEach(async (context) => {
  // A failing step leaves a picture of what the browser showed.
  if (context.task.result?.state === 'fail') {
    await pages.at(-1)?.screenshot({ path: `${shots}/failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

describe('member sign-in flow', () => {
  it('registers → confirms with the mailed code → signs in → sees the welcome page with its countdown', async () => {
    const page = await newPage();
    const stamp = Date.now() % 1_000_000;
    const member = { username: `amaka${stamp}`, email: `amaka${stamp}@example.test`, password: 'green leaves 2026' };

    await page.goto(`${base}/register?ref=${demoLogins.root.username}`);
    await expect.poll(() => page.locator('input[name=referrer]').inputValue()).toBe(demoLogins.root.username);
    await page.locator('input[name=first_name]').fill('Amaka');
    await page.locator('input[name=last_name]').fill('Eze');
    await page.locator('input[name=username]').fill(member.username);
    await page.locator('input[name=email]').fill(member.email);
    await page.locator('input[name=phone]').fill('08031234567');
    await page.locator('input[name=password]').fill(member.password);
    await page.getByTestId('package-select').click();
    await page.getByRole('option', { name: /Bronze/ }).click();
    await page.getByLabel('I accept the terms and conditions').check();
    await page.screenshot({ path: `${shots}/member-register.png`, fullPage: true });
    await page.getByRole('button', { name: /create account|register/i }).click();

    await page.waitForURL(/\/email-confirmation\?email=/);
    await expect.poll(() => page.getByText('Account created successfully and a confirmation code has been sent to your email').count()).toBeGreaterThan(0);
    const code = await codeMailedTo(t.mail, member.email);
    // Pasted from the mail with a space before it (and typed digits after it): the six digits stay whole.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.evaluate((value) => navigator.clipboard.writeText(value), ` ${code}`);
    await page.locator('input[name=code]').focus();
    await page.keyboard.press('ControlOrMeta+V');
    await expect.poll(() => page.locator('input[name=code]').inputValue()).toBe(code);
    await page.locator('input[name=code]').pressSequentially(' 7');
    expect(await page.locator('input[name=code]').inputValue()).toBe(code);
    await page.getByRole('button', { name: /confirm/i }).click();

    await page.waitForURL(/\/login/);
    await page.locator('input[name=username]').fill(member.username);
    await page.locator('input[name=password]').fill(member.password);
    await page.getByRole('button', { name: /sign in|log ?in/i }).click();

    await page.waitForURL(/\/welcome/);
    await expect.poll(() => page.getByText(/Amaka Eze/).count()).toBeGreaterThan(0);
    // The real time left of the 7-day window: 6 days, 23 hours and some minutes.
    await expect.poll(() => page.getByTestId('countdown-days').textContent()).toBe('6');
    expect(await page.getByTestId('countdown-hours').textContent()).toBe('23');
    await page.screenshot({ path: `${shots}/member-welcome.png`, fullPage: true });
  });

  it('shows the server’s message when the password is wrong, and the 404 page for an unknown route', async () => {
    const page = await newPage();
    await page.goto(`${base}/login`);
    await page.locator('input[name=username]').fill(demoLogins.root.username);
    await page.locator('input[name=password]').fill('not the password');
    await page.getByRole('button', { name: /sign in|log ?in/i }).click();
    await expect.poll(() => page.getByText('These credentials do not match our records.').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.goto(`${base}/no/such/page`);
    await expect.poll(() => page.getByText(/The page you are looking for is not found/).count()).toBeGreaterThan(0);
  });

  it('sends the company root, whose registration is paid, to the dashboard', async () => {
    const page = await newPage();
    await page.goto(`${base}/login`);
    await page.locator('input[name=username]').fill(demoLogins.root.username);
    await page.locator('input[name=password]').fill(demoLogins.root.password);
    await page.getByRole('button', { name: /sign in|log ?in/i }).click();
    await page.waitForURL(/\/user\/dashboard/);
    await expect.poll(() => page.getByText(/Crown/).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: `${shots}/member-dashboard.png`, fullPage: true });
  });

  it('keeps a visitor without a token out of member routes', async () => {
    const page = await newPage();
    await page.goto(`${base}/user/dashboard`);
    await page.waitForURL(/\/login/);
  });
});

describe('admin sign-in flow', () => {
  it('signs an admin in to the back office dashboard', async () => {
    const page = await newPage();
    await page.goto(`${base}/admin-login`);
    await page.locator('input[name=email]').fill(demoLogins.admin.email);
    await page.locator('input[name=password]').fill(demoLogins.admin.password);
    await page.getByRole('button', { name: /sign in|log ?in/i }).click();
    await page.waitForURL(/\/admin(\/|$)/);
    await expect.poll(() => page.getByText(/Demo Administrator/).count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${shots}/admin-dashboard.png`, fullPage: true });
  });
});
