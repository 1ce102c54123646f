import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLogVerificationWorker } from '../services/src/log-verification/jobs';
import { demoLogins } from '../services/src/seed/demo-company';
import { creditWallet } from '../services/test/wallet';
import { type MemberAppTest, fullShot, phone, shots, signInAdmin, startMemberApp } from './member-app';

/**
 * Finance staff's audit tools in Chromium: the withdrawals list exported to CSV (every matching
 * row, not the page on screen; naira to the kobo), and the tamper check run on a log a superuser
 * edited past the append-only trigger, naming the broken link.
 */
let app: MemberAppTest;
let worker: Awaited<ReturnType<typeof startLogVerificationWorker>>;
let memberId: string;
const FIXTURE_ROWS = 60;
const HOSTILE_REASON = '=cmd|" /C calc"!A0';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
/** "12345.67" → 1234567 kobo, without a float on the way. */
const kobo = (cell: string) => {
  const match = /^(\d+)\.(\d{2})$/.exec(cell);
  if (!match) throw new Error(`not a two-decimal naira cell: ${cell}`);
  return Number(match[1]) * 100 + Number(match[2]);
};

beforeAll(async () => {
  app = await startMemberApp();
  worker = await startLogVerificationWorker({ db: app.t.runtime.db, redisUrl: app.t.runtime.config.REDIS_URL, prefix: app.t.runtime.config.QUEUE_PREFIX, logger: app.t.runtime.logger });
  const member = await app.http.activeMember({ first_name: 'Adaeze', last_name: 'Nwosu' });
  memberId = member.id;
  const saved = await app.http.call('PUT', `/api/users/${member.id}/update-bank-details`, { token: member.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } });
  expect(saved.status, saved.body.message).toBe(200);
  await creditWallet(app.t.runtime.db, member.id, 5_000_000);
  // One real withdrawal (the demo company pays on Fridays: it waits in the queue)...
  const queued = await app.http.call('POST', `/api/withdrawals/${member.id}/initiate`, { token: member.token, body: { amount: 12_345.67 } });
  expect(queued.status, queued.body.message).toBe(200);
  // ...and more than two pages of history in the read table, one with a reason a spreadsheet would run.
  await sql`
    insert into withdrawals (id, member_id, kind, amount, fee, net_amount, status, reason, bank_name, bank_code, account_number, account_name,
      transfer_reference, created_at, updated_at)
    select gen_random_uuid(), ${member.id}::uuid, 'payout', 100000 + i * 101, i, 100000 + i * 101 - i,
      case when i % 4 = 0 then 'failed' else 'successful' end, case when i = 1 then ${HOSTILE_REASON} else 'Refund' end,
      'Test Bank', '001', '0123456789', 'Adaeze Nwosu', 'E2E-' || i, timestamptz '2026-01-01' + i * interval '1 hour', now()
    from generate_series(1, ${FIXTURE_ROWS}) as i`.execute(app.t.runtime.db);
}, 120_000);
afterAll(async () => {
  await worker?.close();
  await app?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-audit-exports-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

/** Clicks the list's Export and answers the downloaded file's records (header first). */
async function exportList(page: Page): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^withdrawals-\d{4}-\d{2}-\d{2}\.csv$/);
  return parse(await readFile((await download.path())!), { bom: true }) as string[][];
}

describe('exports, as finance', () => {
  it('exports every withdrawal of the list (not the page on screen), naira to the kobo, formulas neutralised', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/withdrawals`);
    await poll(() => page.locator('tbody tr').count()).toBe(25);
    const [header, ...rows] = await exportList(page);
    expect(rows).toHaveLength(FIXTURE_ROWS + 1);
    const amount = header!.indexOf('amount (₦)');
    const net = header!.indexOf('net_amount (₦)');
    expect(amount).toBeGreaterThanOrEqual(0);
    const { rows: sums } = await sql<{ amount: number; net: number }>`select sum(amount)::bigint as amount, sum(net_amount)::bigint as net from withdrawals`.execute(app.t.runtime.db);
    expect(rows.reduce((sum, row) => sum + kobo(row[amount]!), 0)).toBe(sums[0]!.amount);
    expect(rows.reduce((sum, row) => sum + kobo(row[net]!), 0)).toBe(sums[0]!.net);
    expect(rows.some((row) => row[amount] === '12345.67')).toBe(true);
    expect(rows.map((row) => row[header!.indexOf('reason')])).toContain(`'${HOSTILE_REASON}`);
    // Newest first, as on screen: the real withdrawal (made today) leads.
    expect(rows[0]![amount]).toBe('12345.67');
    await fullShot(page, 'audit-exports-withdrawals-finance');
  }, 120_000);

  it('exports with the filter on screen', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/withdrawals?filter=${encodeURIComponent(JSON.stringify({ status: 'failed' }))}`);
    await poll(() => page.locator('tbody tr').count()).toBe(FIXTURE_ROWS / 4);
    const [header, ...rows] = await exportList(page);
    expect(rows).toHaveLength(FIXTURE_ROWS / 4);
    expect(new Set(rows.map((row) => row[header!.indexOf('status')]))).toEqual(new Set(['failed']));
    const { rows: sums } = await sql<{ amount: number }>`select sum(amount)::bigint as amount from withdrawals where status = 'failed'`.execute(app.t.runtime.db);
    expect(rows.reduce((sum, row) => sum + kobo(row[header!.indexOf('amount (₦)')]!), 0)).toBe(sums[0]!.amount);
  }, 120_000);
});

/** Every back-office screen, and the create and edit pages by their address. */
const financeScreens = () => [
  '',
  'members',
  `members/${memberId}/show`,
  `members/${memberId}/show/profile`,
  `members/${memberId}/show/bank`,
  `members/${memberId}/show/wallet`,
  `members/${memberId}/show/login`,
  'incentive-claims',
  'incentives',
  'incentives/create',
  'ranks',
  'ranks/create',
  'package-payments',
  'registrations',
  'upgrades',
  'withdrawals',
  'product-sales',
  'matching-cycles',
  'global-profit-runs',
  'profit-pool-runs',
  'packages',
  'packages/1',
  'packages/create',
  'products',
  'products/create',
  'company-banks',
  'company-banks/create',
  'stockist-packages',
  'wallet',
  'stockist-history',
  'tamper-check',
  'bonus-settings',
  'global-profit-settings',
  'profit-pool-settings',
  'referral-bonus-settings',
  'withdrawal-settings',
  'company-details',
  'upgrade-settings',
  'unilevel-settings',
  'stockist-upline-bonus-setting',
];
const REACHED_BY_ADDRESS = /\/create$|^packages\/1$/;
/** Controls that change something. Export, reload, filters ("Add filter") and the tamper check only read. */
const WRITE_CONTROL = /^(create|add(?! filter)|new|edit|delete|remove|save|update|approve|decline|disapprove|make payout|pay|send|close due|share|run due|award|submit|deactivate|activate|reset|upload)\b/i;

describe('finance staff see no write control', () => {
  it('on any screen of the back office, nor on the create and edit pages reached by address', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    const found: string[] = [];
    for (const screen of financeScreens()) {
      await page.goto(`${app.base}/admin/${screen}`);
      await page.waitForLoadState('networkidle');
      // Still signed in: a refused write would have ended the session.
      expect(page.url(), screen).not.toMatch(/admin-login/);
      const writeControls = async () =>
        (
          await page.locator('button:visible, a[role=button]:visible, a.MuiButton-root:visible, [role=tab]:visible').evaluateAll((elements) =>
            elements.map((element) => (element.getAttribute('aria-label') || element.textContent || '').trim()),
          )
        ).filter((name) => WRITE_CONTROL.test(name));
      if (REACHED_BY_ADDRESS.test(screen)) {
        // A create or edit page reached by its address is refused once the role is known: finance ends on
        // "access denied", with no form left behind (a form that stays is what this looks for).
        await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(/access-denied/);
      }
      for (const name of await writeControls()) found.push(`${screen}: ${name}`);
    }
    expect(found).toEqual([]);
  }, 600_000);
});

describe('the tamper check, as finance', () => {
  it('runs on an intact log, then names the event a superuser edited', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/tamper-check`);
    await page.getByTestId('run-tamper-check').click();
    await poll(() => text(page, 'tamper-status')).toBe('Intact');
    await fullShot(page, 'audit-exports-tamper-intact');

    // A superuser turns the append-only trigger off for the session and edits the member's registration.
    const { rows } = await sql<{ stream_id: string; stream_position: number; hash: string }>`
      select stream_id, stream_position, hash from events where stream_id = ${`member-${memberId}`} and type = 'MemberRegistered'`.execute(app.t.runtime.db);
    const edited = rows[0]!;
    await app.t.runtime.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update events set data = data || '{"last_name":"Okafor"}' where stream_id = ${edited.stream_id} and stream_position = ${edited.stream_position}`.execute(trx);
    });

    await page.getByTestId('run-tamper-check').click();
    await poll(() => text(page, 'tamper-status')).toBe('Broken');
    expect(await text(page, 'broken-stream')).toBe(edited.stream_id);
    expect(await text(page, 'broken-position')).toBe(String(edited.stream_position));
    expect(await text(page, 'broken-expected')).toBe(edited.hash);
    expect(await text(page, 'broken-problem')).toMatch(/changed after it was written/);
    await fullShot(page, 'audit-exports-tamper-broken');

    // The dashboard says so too.
    await page.goto(`${app.base}/admin`);
    await poll(() => text(page, 'tamper-check')).toBe('Broken');
    await fullShot(page, 'audit-exports-dashboard');

    const small = await app.newPage(phone);
    await signInAdmin(small, app.base, demoLogins.finance);
    await small.goto(`${app.base}/admin/tamper-check`);
    await poll(() => text(small, 'broken-stream')).toBe(edited.stream_id);
    await fullShot(small, 'audit-exports-tamper-broken-phone');
  }, 180_000);
});
