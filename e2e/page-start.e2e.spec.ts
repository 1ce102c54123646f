import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, signIn, startMemberApp } from './member-app';

/**
 * Issue 11 item 7 (fast pages; docs/decisions.md 46): a reload of a member page starts the page's
 * code and api calls with the first script (web-member start-page.ts), and the page, mounting
 * after, takes those answers instead of asking again. (That the built scripts are cached a year
 * is services/src/api/web-apps.int.spec.ts: Playwright reports a script read from the cache too.)
 */
let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => {
  await app?.close();
});

/** Reloads `path` and answers the api calls the page made until it settled. */
async function reload(page: Page, path: string): Promise<string[]> {
  const api: string[] = [];
  const answered = (request: { url: () => string }) => {
    const { pathname, search } = new URL(request.url());
    if (pathname.startsWith('/api/')) api.push(pathname + search);
  };
  page.on('requestfinished', answered);
  try {
    await page.goto(`${app.base}${path}`);
    await page.locator('main').waitFor();
    await expect.poll(() => page.locator('.MuiSkeleton-root, .MuiCircularProgress-indeterminate').count()).toBe(0);
    // Whatever the answers started has been asked for and answered too.
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('requestfinished', answered);
  }
  return api;
}

describe('a member page on reload', () => {
  it('asks for each of its api calls once', async () => {
    const page = await app.newPage();
    await signIn(page, app.base, demoLogins.root, /\/user\/dashboard/);
    for (const path of ['/user/dashboard', '/user/wallet', '/user/profile']) {
      await reload(page, path); // fills the cache with this page's chunk
      const api = await reload(page, path);
      // The early start and the page's own queries share keys: no call goes twice.
      expect(api.length, `${path}: ${api.join(', ')}`).toBeGreaterThan(1);
      expect(new Set(api).size, `${path} asked twice: ${api.join(', ')}`).toBe(api.length);
    }
  });
});
