/**
 * How soon each member page is usable (issue 11 item 7: "every member page interactive in under
 * 500 ms on this machine with the demo data"). The real api on its own database seeded with the demo
 * company, the member app freshly built (vite), Debian's Chromium headless at 1280×900, signed in
 * as the demo company's root member.
 *
 * Time to interactive, per page: from the start of the navigation (a full page load, as typing the
 * address or pressing reload) until the page shows its content: the member layout is there, no
 * loader, skeleton or progress bar is left, and no api call is in flight; later than every api
 * answer the page asked for. Measured twice: the first visit in a fresh browser profile (nothing
 * cached, the scripts downloaded) and reloads (scripts cached, the usual case), median of
 * BENCH_PAGE_RUNS (5). "Chain" is the longest run of api calls each started only after the one
 * before it answered: 1 is all in parallel; the seeds' dashboard had 4 (user, profile, package,
 * the rest). The Stockist Portal's pages are opened by a stockist made with the real commands (a
 * member applies, an admin approves). Every figure is also a ratio to a one-line reference page
 * served by the same server in the same run, and each reload says where its time went: when the
 * last script arrived, when the first api call left, and the main thread's script and style/layout
 * time (CDP Performance metrics).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/browser';
import { createDb } from '../src/core/db';
import { type TestApp, createTestApp } from '../test/app';
import { httpHelpers } from '../test/http';
import { tinyPng } from '../test/multipart';
import { demoLogins } from '../src/seed/demo-company';
import type { BenchModule, Table } from './harness';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The member area's pages an active member opens (web-member/src/App.tsx). */
export const memberPages = [
  '/user/dashboard',
  '/user/wallet',
  '/user/profile',
  '/user/security',
  '/user/downlines',
  '/user/genealogy',
  '/user/repurchase',
  '/user/stockist-registration',
] as const;

/** The Stockist Portal's pages, opened by an approved stockist (a member who applied, approved by an admin). */
export const stockistPages = ['/user/stockist-profile', '/user/stock-purchase', '/user/order', '/user/stockist-record'] as const;

/**
 * The reference, served by the same server from the same folder: a static page whose one small
 * module writes one line into a <main>. Each page's figure is also given as a ratio to it, so a
 * loaded machine's slowness is divided out (the page's own cost is what is left).
 */
const REFERENCE_PAGE = '/bench-reference.html';
const referenceHtml = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><title>Reference</title>
<script type="module" src="/assets/bench-reference.js"></script></head>
<body><div id="root"></div></body></html>
`;
const referenceScript = `const main = document.createElement('main');
main.textContent = 'Reference page: one line written by one small module.';
document.getElementById('root').append(main);
`;

const BUDGET_MS = 500;
/** How long a new browser window is left to build its own interface before a first visit (see the first visit below). */
const WINDOW_SETTLE_MS = 1_500;

type ApiCall = { name: string; start: number; end: number };
type Visit = {
  interactiveMs: number;
  apiCalls: number;
  chain: number;
  /** Calls sent only after another call of the page had answered: what keeps the chain above 1. */
  lateCalls: string[];
  /** A loader, skeleton or progress bar was drawn before the page's content. */
  loaderShown: boolean;
  apiSpanMs: number;
  slowestCallMs: number;
  /** Where the time went: the last script asked for and the last one arrived, the first api call sent (ms from the navigation). */
  lastScriptAskedMs: number;
  scriptsInMs: number;
  /** The scripts asked for before the page was shown, uncompressed (KB): what a first visit downloads and compiles. */
  scriptKB: number;
  firstCallMs: number;
  /** The renderer's main thread (CDP Performance metrics): running scripts, and styles + layout. */
  scriptMs: number;
  styleLayoutMs: number;
};

/** The longest sequence of calls where each started after the previous one had answered. */
export function longestChain(calls: ApiCall[]): number {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  sorted.forEach((call, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (sorted[j]!.end <= call.start) before = Math.max(before, depth[j]!);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}

// Run in the page. The services' TypeScript has no DOM types, so the page's globals are reached
// through `globalThis` (functions, not strings: the app's Content-Security-Policy forbids eval).
type PageGlobals = { document: { querySelector: (selector: string) => unknown }; performance: { now: () => number; getEntriesByType: (type: string) => Array<{ name: string; startTime: number; responseEnd: number; decodedBodySize: number }> }; requestAnimationFrame: (callback: () => void) => void };
/** What a page shows while it waits: a skeleton or a spinning or running bar (a determinate bar is a figure: a leg's progress). */
const LOADING = '.MuiSkeleton-root, .MuiCircularProgress-indeterminate, .MuiLinearProgress-indeterminate, .MuiLinearProgress-query';
/** The page's clock when its content is shown (the layout, no loader, skeleton or progress bar), else false. */
const SHOWN = (loading: string) => {
  const page = globalThis as unknown as PageGlobals;
  return page.document.querySelector('main') && !page.document.querySelector(loading) ? page.performance.now() : false;
};
const TWO_FRAMES = () => new Promise<void>((resolve) => (globalThis as unknown as PageGlobals).requestAnimationFrame(() => (globalThis as unknown as PageGlobals).requestAnimationFrame(resolve)));
/** The page's api calls and scripts from resource timing, in ms from the navigation start. */
const RESOURCES = () => {
  const entries = (globalThis as unknown as PageGlobals).performance.getEntriesByType('resource').map((entry) => ({ name: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd, bytes: entry.decodedBodySize }));
  return { calls: entries.filter((entry) => entry.name.startsWith('/api/')), scripts: entries.filter((entry) => entry.name.endsWith('.js')) };
};

type Metrics = Record<string, number>;
/** The renderer's cumulative counters (seconds of script, style and layout work). */
async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(list.map((metric) => [metric.name, metric.value]));
}
/** Notes in the page whether a loader, skeleton or progress bar was ever drawn (a page drawn once, with its data, shows none). */
const WATCH_LOADERS = (loading: string) => {
  const page = globalThis as unknown as { __loaderShown?: boolean; document: { documentElement: unknown; querySelector: (s: string) => unknown }; MutationObserver: new (callback: () => void) => { observe: (target: unknown, options: object) => void; disconnect: () => void } };
  page.__loaderShown = false;
  const observer = new page.MutationObserver(() => {
    if (page.document.querySelector(loading)) {
      page.__loaderShown = true;
      observer.disconnect();
    }
  });
  observer.observe(page.document.documentElement, { childList: true, subtree: true });
};
const LOADER_SHOWN = () => (globalThis as unknown as { __loaderShown?: boolean }).__loaderShown === true;

/** Opens a CDP session on the page with the Performance domain on. */
async function profiled(page: Page): Promise<{ page: Page; cdp: CDPSession }> {
  await page.addInitScript(WATCH_LOADERS, LOADING);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, cdp };
}

/** Loads `url` and answers when it is usable, with its api calls (resource timing, relative to the navigation). */
async function visit({ page, cdp }: { page: Page; cdp: CDPSession }, url: string): Promise<Visit> {
  let inFlight = 0;
  const onRequest = (request: { url: () => string }) => void (request.url().includes('/api/') && inFlight++);
  const onDone = (request: { url: () => string }) => void (request.url().includes('/api/') && inFlight--);
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    const stuck = async (error: unknown) => {
      const left = await page.evaluate((loading) => Array.from((globalThis as unknown as { document: { querySelectorAll: (s: string) => ArrayLike<{ className: string }> } }).document.querySelectorAll(loading)).map((el) => el.className.split(' ')[0]), LOADING).catch(() => []);
      throw new Error(`${url} did not settle (${inFlight} api calls in flight; still loading: ${left.join(', ') || 'nothing'}; at ${page.url()}): ${error instanceof Error ? error.message : String(error)}`);
    };
    let shownAt = 0;
    // Settled: content shown and no api call left; checked again after a frame so a call started by the last answer counts.
    for (let settled = 0; settled < 2; ) {
      shownAt = (await page.waitForFunction(SHOWN, LOADING, { polling: 'raf', timeout: 30_000 }).then((handle) => handle.jsonValue(), stuck)) as number;
      if (inFlight > 0) {
        settled = 0;
        await page.waitForEvent('requestfinished', { timeout: 30_000 });
        continue;
      }
      settled++;
      if (settled < 2) await page.evaluate(TWO_FRAMES);
    }
    if (!page.url().endsWith(url.replace(/^https?:\/\/[^/]+/, ''))) throw new Error(`${url} went to ${page.url()}`);
    // Chromium counts these per document: the new page's figures are the navigation's own.
    const after = await metrics(cdp);
    const spent = (name: string) => (after[name] ?? 0) * 1000;
    const { calls, scripts } = await page.evaluate(RESOURCES);
    const loaderShown = await page.evaluate(LOADER_SHOWN);
    const lastAnswer = Math.max(0, ...calls.map((call) => call.end));
    // The page's own scripts: those asked for before it was shown (a chunk fetched once the browser is
    // idle after, such as a form's validation, is not on the way to the first screen).
    const needed = scripts.filter((script) => script.start <= shownAt);
    return {
      lastScriptAskedMs: Math.max(0, ...needed.map((script) => script.start)),
      scriptsInMs: Math.max(0, ...needed.map((script) => script.end)),
      scriptKB: needed.reduce((sum, script) => sum + script.bytes, 0) / 1024,
      firstCallMs: calls.length ? Math.min(...calls.map((call) => call.start)) : 0,
      scriptMs: spent('ScriptDuration'),
      styleLayoutMs: spent('RecalcStyleDuration') + spent('LayoutDuration'),
      interactiveMs: Math.max(shownAt, lastAnswer),
      apiCalls: calls.length,
      chain: longestChain(calls),
      loaderShown,
      lateCalls: calls.filter((call) => calls.some((other) => other.end <= call.start)).map((call) => call.name.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{uuid}')),
      apiSpanMs: calls.length ? lastAnswer - Math.min(...calls.map((call) => call.start)) : 0,
      slowestCallMs: Math.max(0, ...calls.map((call) => call.end - call.start)),
    };
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (n: number) => `${Math.round(n)} ms`;

/**
 * Each call the dashboard makes, alone over real HTTP (median of `runs` after a warm-up), then all
 * at once: what one call costs on the server, apart from the browser (the seeds' took 230–360 ms
 * each, paying a new database connection per call: docs/decisions.md 41).
 */
async function callLatencies(base: string, runs: number): Promise<Table> {
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: demoLogins.root.username, password: demoLogins.root.password }) });
  const me = ((await login.json()) as { data: { uuid: string; access_token: string; package_id: number } }).data;
  const headers = { authorization: `Bearer ${me.access_token}` };
  const paths = [
    '/api/auth/user',
    `/api/users/${me.uuid}/profile-details`,
    `/api/packages/${me.package_id}`,
    `/api/bonuses/${me.uuid}/bonus-stats`,
    `/api/bonuses/${me.uuid}/wallet-balance`,
    `/api/users/${me.uuid}/total-pv`,
    `/api/incentive-claims/${me.uuid}/current-incentive`,
    '/api/settings/all',
    `/api/wallet/${me.uuid}/bonuses?page=1`,
    `/api/withdrawals/${me.uuid}/user-history?page=1`,
  ];
  const time = async (callPath: string): Promise<[number, number]> => {
    const started = performance.now();
    const response = await fetch(`${base}${callPath}`, { headers });
    await response.arrayBuffer();
    return [performance.now() - started, response.status];
  };
  for (const callPath of paths) await time(callPath);
  const rows = [];
  for (const callPath of paths) {
    const timings: number[] = [];
    let status = 0;
    for (let i = 0; i < runs; i++) [timings[i], status] = await time(callPath);
    rows.push([callPath.replace(me.uuid, '{uuid}'), status, ms(median(timings)), ms(Math.max(...timings))]);
  }
  const started = performance.now();
  await Promise.all(paths.map(time));
  rows.push([`all ${paths.length} at once`, '', ms(performance.now() - started), '']);
  return { title: `The dashboard's api calls, each alone over HTTP (median of ${runs}), then all at once`, columns: ['call', 'status', 'median', 'max'], rows };
}

type Row = { path: string; who: string; first: Visit; reloads: Visit[] };

/** Signs in through the login form and keeps the session (token and account in localStorage). */
async function signedInSession(browser: Browser, base: string, who: { username: string; password: string }) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.locator('input[name=username]').fill(who.username);
  await page.locator('input[name=password]').fill(who.password);
  await page.getByRole('button', { name: /^login$/i }).click();
  await page.waitForURL(/\/user\/dashboard/, { timeout: 30_000 });
  return { context, page, session: await context.storageState() };
}

/** A member of the demo company who applied to be a stockist and whom an admin approved (the real commands, over HTTP). */
async function approvedStockist(t: TestApp) {
  const http = httpHelpers(t);
  const member = await http.activeMember({ referrer: demoLogins.root.username, package_id: 2 });
  const applied = await http.upload('POST', '/api/stockists/create', {
    token: member.token,
    fields: { store_name: 'Ikeja Herbs', store_address: '12 Allen Avenue, Ikeja', store_state: 'Lagos', store_phone: '08031234567', package_id: 1, referrer: demoLogins.root.username },
    files: { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } },
  });
  if (applied.status !== 200) throw new Error(`stockist application: ${applied.status} ${applied.body.message}`);
  const approved = await http.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/approve-registration`, { token: await http.adminToken() });
  if (approved.status !== 200) throw new Error(`stockist approval: ${approved.status} ${approved.body.message}`);
  return member;
}

const VIEWPORT = { width: 1280, height: 900 };

const memberPagesBench: BenchModule = {
  name: 'pages',
  description: "member pages' time to interactive in headless Chromium (demo data, fresh build), against a one-line reference page",
  async run({ freshDatabase, log }) {
    const runs = Math.max(1, Math.round(Number(process.env.BENCH_PAGE_RUNS ?? 5)));
    // First visits: one by default (each needs a fresh profile and window); BENCH_FIRST_VISITS=n gives the median of n.
    const firstVisits = Math.max(1, Math.round(Number(process.env.BENCH_FIRST_VISITS ?? 1)));
    // BENCH_PAGES=/user/dashboard,/user/wallet measures only those (and the reference), for a quick before/after.
    const only = process.env.BENCH_PAGES ? new Set(process.env.BENCH_PAGES.split(',').map((p) => p.trim())) : undefined;
    const chosen = (paths: readonly string[]) => paths.filter((p) => p === REFERENCE_PAGE || !only || only.has(p));
    // Built to a folder of its own, so a running `npm start` or browser test keeps its web-member/dist.
    const dist = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-member-'));
    log(`building the member app into ${dist}`);
    execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir'], { cwd: path.join(repoRoot, 'web-member'), stdio: ['ignore', 'ignore', 'inherit'] });
    // Written before the server starts: it lists the folder's files once.
    await writeFile(path.join(dist, REFERENCE_PAGE), referenceHtml);
    await writeFile(path.join(dist, 'assets/bench-reference.js'), referenceScript);
    const { name, connectionString } = await freshDatabase('pages');
    const db = createDb(connectionString, { max: 30, applicationName: 'portal-bench-pages' });
    // run.ts drops the database after the module; the app only closes its pool.
    const t = await createTestApp({ listen: true, env: { WEB_MEMBER_DIST: dist }, database: { db, url: connectionString, name, drop: () => db.destroy() } });
    const browser = await launchBrowser();
    const contexts: BrowserContext[] = [];
    try {
      const base = t.runtime.config.publicUrl;
      const stockist = await approvedStockist(t);
      const visitors = [
        { who: 'root member', login: demoLogins.root, paths: chosen([REFERENCE_PAGE, ...memberPages]) },
        { who: 'stockist', login: stockist, paths: chosen(stockistPages) },
      ].filter((visitor) => visitor.paths.length > 0);
      const rows: Row[] = [];
      for (const visitor of visitors) {
        const signedIn = await signedInSession(browser, base, visitor.login);
        contexts.push(signedIn.context);
        const page = await profiled(signedIn.page);
        for (const pagePath of visitor.paths) {
          const url = `${base}${pagePath}`;
          const firsts: Visit[] = [];
          for (let i = 0; i < firstVisits; i++) {
            // First visit: a fresh profile holding only the session (no cached scripts).
            const fresh = await browser.newContext({ viewport: VIEWPORT, storageState: signedIn.session });
            // Headless Chromium builds a new window's own interface (its omnibox pages, ~100 scripts in a
            // renderer of their own, seen in a trace) when the window opens, on the same two CPUs: a person
            // typing the address has that window already, so the visit starts once it is built.
            const freshPage = await fresh.newPage();
            await freshPage.goto('about:blank');
            await freshPage.waitForTimeout(WINDOW_SETTLE_MS);
            firsts.push(await visit(await profiled(freshPage), url));
            await fresh.close();
          }
          // The median first visit (the middle one of an odd count).
          const first = [...firsts].sort((a, b) => a.interactiveMs - b.interactiveMs)[Math.floor((firsts.length - 1) / 2)]!;
          const reloads: Visit[] = [];
          for (let i = 0; i <= runs; i++) {
            const result = await visit(page, url);
            if (i > 0) reloads.push(result); // the first one warms this page's scripts
          }
          log(`${pagePath}: first visit ${ms(first.interactiveMs)}, reload median ${ms(median(reloads.map((r) => r.interactiveMs)))}`);
          rows.push({ path: pagePath, who: visitor.who, first, reloads });
        }
      }

      const reference = rows.find((row) => row.path === REFERENCE_PAGE)!;
      const ratio = (value: number, of: number) => `${(value / Math.max(1, of)).toFixed(1)}×`;
      const mid = (row: Row, pick: (visit: Visit) => number) => median(row.reloads.map(pick));
      const table: Table = {
        title: `Member pages, time to interactive (demo company, Chromium 1280×900; ${firstVisits > 1 ? `first visit = median of ${firstVisits}; ` : ''}reload = median of ${runs}; × = ratio to the reference page in the same run)`,
        columns: ['page', 'first visit', '× ref', 'reload', '× ref', 'reload max', 'api calls', 'chain', 'loaders', 'scripts in', 'first call', 'script', 'style+layout', '1st: script', '1st: JS', `≤ ${BUDGET_MS} ms`],
        rows: rows.map((row) => {
          const reload = mid(row, (r) => r.interactiveMs);
          const worst = Math.max(row.first.interactiveMs, reload);
          return [
            row.path === REFERENCE_PAGE ? `${row.path} (reference)` : row.who === 'stockist' ? `${row.path} (stockist)` : row.path,
            ms(row.first.interactiveMs),
            ratio(row.first.interactiveMs, reference.first.interactiveMs),
            ms(reload),
            ratio(reload, mid(reference, (r) => r.interactiveMs)),
            ms(Math.max(...row.reloads.map((r) => r.interactiveMs))),
            mid(row, (r) => r.apiCalls),
            mid(row, (r) => r.chain),
            `${row.reloads.filter((r) => r.loaderShown).length}/${row.reloads.length}`,
            ms(mid(row, (r) => r.scriptsInMs)),
            ms(mid(row, (r) => r.firstCallMs)),
            ms(mid(row, (r) => r.scriptMs)),
            ms(mid(row, (r) => r.styleLayoutMs)),
            ms(row.first.scriptMs),
            `${Math.round(row.first.scriptKB)} KB`,
            worst <= BUDGET_MS ? 'yes' : 'NO',
          ];
        }),
        notes: [
          'interactive = the layout shown with no loader, skeleton or progress bar left and every api call answered, from the navigation start',
          'loaders = reloads that drew a loader, skeleton or progress bar before the content (0: drawn once, complete); chain = api calls one after another (1: all in parallel); scripts in = the last script arrived; first call = the first api call sent (reloads, ms from the navigation)',
          "script, style+layout = the renderer's main thread running scripts, and computing styles and layout, during the reload (CDP Performance metrics); 1st: script and JS = the same on the first visit, and the scripts it loaded before the page was shown (uncompressed)",
        ],
      };
      const late = rows.filter((row) => row.reloads.at(-1)?.lateCalls.length).map((row) => `${row.path}: ${row.reloads.at(-1)!.lateCalls.join(', ')}`);
      if (late.length) table.notes!.push(`sent after another call had answered (last reload): ${late.join('; ')}`);
      const calls = await callLatencies(base, runs);
      const over = rows.filter((row) => row !== reference && Math.max(row.first.interactiveMs, mid(row, (r) => r.interactiveMs)) > BUDGET_MS).map((row) => row.path);
      return {
        tables: [table, calls],
        notes: [over.length ? `Over the ${BUDGET_MS} ms budget: ${over.join(', ')}` : `Every member page is interactive within ${BUDGET_MS} ms, first visit and reload.`],
        data: rows,
      };
    } finally {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await t.close();
      await rm(dist, { recursive: true, force: true });
    }
  },
};

export default memberPagesBench;
