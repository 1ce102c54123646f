import { mkdirSync } from 'node:fs';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { consumers as allConsumers } from '../services/src/consumers';
import { runInTransaction } from '../services/src/core/command';
import { readModels } from '../services/src/read-models';
import { appendToStream } from '../services/src/core/event-store';
import { type ConsumerWorker, startConsumerWorker } from '../services/src/core/wakeups';
import { startOperatorsWorker } from '../services/src/operators/worker';
import { demoLogins } from '../services/src/seed/demo-company';
import { type TestApp, createTestApp } from '../services/test/app';
import { httpHelpers } from '../services/test/http';
import { launchBrowser } from './browser';
import { confirmInDialog, desktop, fullShot, phone, shots, signInAdmin } from './member-app';

/**
 * The operators' console in Chromium (issue 12 item 5): the api with every real consumer and a
 * real worker (the consumer and operations workers worker.ts starts). The Consumers page shows a
 * consumer stopped on a poison event with its error; an admin rebuilds the wallet ledger with a
 * live progress bar to 100 % and the tables come back equal; finance sees no control; Bull Board
 * opens from the page under the portal's Content-Security-Policy.
 */
let t: TestApp;
let browser: Browser;
let base: string;
let consumerWorker: ConsumerWorker;
let operators: Awaited<ReturnType<typeof startOperatorsWorker>>;
let poisonPosition = 0;
const pages: Page[] = [];
const poll = <T>(read: () => T | Promise<T>, timeout = 30_000) => expect.poll(read, { timeout, interval: 100 });

async function newPage(options = desktop): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  pages.push(page);
  return page;
}

/** The wallet ledger's two tables, every column, in a stable order. */
async function walletTables() {
  const entries = await sql`select * from wallet_entries order by global_position`.execute(t.runtime.db);
  const wallets = await sql`select * from wallets order by member_id`.execute(t.runtime.db);
  return { entries: entries.rows, wallets: wallets.rows };
}

beforeAll(async () => {
  const dist: Record<string, string> = process.env.WEB_ADMIN_DIST ? { WEB_ADMIN_DIST: process.env.WEB_ADMIN_DIST } : {};
  t = await createTestApp({ listen: true, consumers: allConsumers, env: dist });
  base = t.runtime.config.publicUrl;
  const logger = pino({ level: 'silent' });
  consumerWorker = await startConsumerWorker({ db: t.runtime.db, redisUrl: t.runtime.config.REDIS_URL, prefix: t.runtime.config.QUEUE_PREFIX, consumers: allConsumers, logger, sweepEveryMs: 500 });
  operators = await startOperatorsWorker(t.runtime, { consumerWorker, logger, heartbeatEveryMs: 1_000 });
  // A realistic run: members register and pay, the compensation policy credits bonuses, the ledger records them.
  const http = httpHelpers(t);
  for (let i = 0; i < 4; i++) await http.activeMember();
  for (let waited = 0; (await sql<{ n: number }>`select count(*)::int as n from wallet_entries`.execute(t.runtime.db)).rows[0]!.n === 0; waited += 100) {
    if (waited > 30_000) throw new Error('the wallet ledger recorded no bonus within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // A poison event, as a bad deploy or a hand edit would leave one: a stock line whose quantity is a word.
  const [poison] = await runInTransaction(t.runtime.commands, (trx) =>
    appendToStream(trx, `stock-${crypto.randomUUID()}`, [{ type: 'StockAdded', data: { stockist_id: crypto.randomUUID(), stock_purchase_id: crypto.randomUUID(), lines: [{ product_id: 1, qty: 'ten' }] } }], {
      expectedVersion: 0,
      metadata: { actor: { type: 'system', id: 'e2e-poison' }, now: new Date().toISOString() },
    }),
  );
  poisonPosition = poison!.globalPosition;
  browser = await launchBrowser();
  mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await operators?.close();
  await consumerWorker?.close();
  await t?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await pages.at(-1)?.screenshot({ path: `${shots}/failed-operators-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

describe('the Consumers page', () => {
  it('shows a consumer stopped on a poison event with its error, as an admin', async () => {
    const page = await newPage();
    await signInAdmin(page, base, demoLogins.admin);
    await page.goto(`${base}/admin/consumers`);
    const row = page.getByTestId('consumer-stockist-stock');
    await poll(async () => (await row.getByTestId('consumer-status').textContent()) ?? '').toBe('Stopped');
    const failure = row.getByTestId('consumer-failure');
    await expect.poll(async () => (await failure.textContent()) ?? '').toContain(`Stopped at event #${poisonPosition} (StockAdded)`);
    // 'ten' times the line's sign is NaN, which PostgreSQL refuses as an integer.
    expect(await failure.textContent()).toContain('invalid input syntax for type integer: "NaN"');
    expect(await page.getByTestId('consumers-stopped').textContent()).toContain('1');
    // Every projection and policy is listed, and the worker with them.
    for (const consumer of allConsumers) expect(await page.getByTestId(`consumer-${consumer.name}`).count()).toBe(1);
    await poll(() => page.getByTestId('worker').count()).toBe(1);
    await fullShot(page, 'operators-consumers-stopped-1280');
  }, 150_000);

  it('rebuilds the wallet ledger with a live progress bar to 100 % and leaves its tables equal', async () => {
    await poll(async () => (await sql<{ n: number }>`select count(*)::int as n from consumer_checkpoints where name = 'wallet-ledger' and status <> 'failed'`.execute(t.runtime.db)).rows[0]!.n).toBe(1);
    const before = await walletTables();
    expect(before.entries.length).toBeGreaterThan(0);
    const page = pages[0]!;
    const row = page.getByTestId('consumer-wallet-ledger');
    await confirmInDialog(page, { open: () => row.getByTestId('consumer-rebuild').click(), text: /./, button: /confirm/i });
    // The bar shows while it is queued and runs, then stands at 100 once the rebuilt tables are swapped in.
    await row.getByTestId('rebuild-progress').or(row.getByTestId('rebuild-done')).first().waitFor();
    const done = row.getByTestId('rebuild-done');
    await done.waitFor({ timeout: 60_000 });
    expect(await done.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await done.textContent()).toMatch(/Rebuilt .* \(\d[\d,]* events\), asked by/);
    expect(await walletTables()).toEqual(before);
    await poll(async () => (await page.getByTestId('operator-action').allTextContents()).join('\n')).toMatch(/Projection rebuilt: wallet-ledger/);
    await fullShot(page, 'operators-consumers-rebuilt-1280');
  }, 150_000);

  it('lists every read model, inline ones too, and rebuilds the members table to 100 % leaving it equal', async () => {
    const members = async () => (await sql`select * from members order by id`.execute(t.runtime.db)).rows;
    const before = await members();
    const page = pages[0]!;
    for (const model of readModels) expect(await page.getByTestId(`read-model-${model.name}`).count(), model.name).toBe(1);
    const row = page.getByTestId('read-model-members');
    await row.scrollIntoViewIfNeeded();
    await confirmInDialog(page, { open: () => row.getByTestId('read-model-rebuild').click(), text: /./, button: /confirm/i });
    await row.getByTestId('rebuild-progress').or(row.getByTestId('rebuild-done')).first().waitFor();
    const done = row.getByTestId('rebuild-done');
    await done.waitFor({ timeout: 60_000 });
    expect(await done.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await done.textContent()).toMatch(/Rebuilt .* \(\d[\d,]* events\), asked by/);
    expect(await members()).toEqual(before);
    await poll(async () => (await page.getByTestId('operator-action').allTextContents()).join('\n')).toMatch(/Projection rebuilt: members/);
    await row.screenshot({ path: `${shots}/operators-read-model-rebuilt-1280.png` });
    await fullShot(page, 'operators-read-models-1280');
    // This page polls the console every 2 s; the tests after this one open their own.
    await page.context().close();
  }, 150_000);

  it('is read-only for finance staff, and fits a phone', async () => {
    const page = await newPage(phone);
    await signInAdmin(page, base, demoLogins.finance);
    await page.goto(`${base}/admin/consumers`);
    await page.getByTestId('consumer-stockist-stock').getByTestId('consumer-failure').waitFor();
    expect(await page.getByText('only administrators can pause').count()).toBe(1);
    await page.getByTestId('read-model-members').waitFor();
    for (const control of ['consumer-pause', 'consumer-resume', 'consumer-retry', 'consumer-rebuild', 'read-model-rebuild', 'open-queues']) expect(await page.getByTestId(control).count(), control).toBe(0);
    await fullShot(page, 'operators-consumers-finance-390');
  }, 150_000);

  it('opens Bull Board for an admin, working under the Content-Security-Policy', async () => {
    const page = await newPage(phone);
    await signInAdmin(page, base, demoLogins.admin);
    await page.goto(`${base}/admin/consumers`);
    await page.getByTestId('consumer-wallet-ledger').waitFor();
    await fullShot(page, 'operators-consumers-admin-390');
    const violations: string[] = [];
    page.context().on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const [board] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('open-queues').click()]);
    board.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await board.setViewportSize({ width: 1280, height: 900 });
    pages.push(board);
    await board.waitForLoadState('load');
    await board.screenshot({ path: `${shots}/operators-bull-board-loading-1280.png` });
    await board.getByText('consumers', { exact: true }).first().waitFor({ timeout: 20_000 });
    await board.getByText('operations', { exact: true }).first().waitFor();
    await board.screenshot({ path: `${shots}/operators-bull-board-1280.png` });
    expect(violations).toEqual([]);
  }, 150_000);
});
