import { deflateSync, crc32 } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { settleConsumers } from '../services/test/consumers';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, confirmInDialog, fullShot, shots, signInAdmin, startMemberApp, expectToast } from './member-app';

/**
 * The back office's incentives screens against the real api: a member reaches a rank and claims
 * its incentive; an admin sees the request among the pending ones, approves it (the award bonuses
 * are paid), edits an incentive with a new picture, and changes an award bonus percentage beside
 * the ranks; finance staff see the same screens without the buttons that change anything.
 */
let app: MemberAppTest;

/** A small solid-colour PNG the browser uploads as the incentive's picture. */
function colourPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).fill(Buffer.from([r, g, b]))]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

const awardTotal = async (memberId: string, token: string) => (await app.http.call('GET', `/api/bonuses/${memberId}/bonus-stats`, { token })).body.data.award_bonus as number;

let admin: string;
let sponsor: { id: string; username: string };
let winner: { id: string; username: string; first_name: string; last_name: string };
let left: { id: string };

beforeAll(async () => {
  // WEB_ADMIN_DIST (this helper's own build) is passed to the app by startMemberApp.
  app = await startMemberApp();
  const h = app.http;
  admin = await h.adminToken();
  // The Supervisor rank needs 50 CPV in this test company.
  const rank = (await h.call('GET', '/api/admin/ranks/2', { token: admin })).body;
  expect((await h.call('PUT', '/api/admin/ranks/2', { token: admin, body: { ...rank, points: 50, package_id: 1 } })).status).toBe(200);
  const s = await h.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
  const w = await h.registeredMember({ referrer: s.username, package_id: 2 }, { asParent: true });
  await h.payByReceipt(w);
  const l = await h.activeMember({ referrer: w.username, package_id: 2 });
  await h.registeredMember({ referrer: w.username, package_id: 2 });
  await settleConsumers(app.t.runtime.db);
  sponsor = s;
  winner = w;
  left = l;
  // The member claims the Supervisor's Android phone (₦120,000).
  const claimed = await h.call('POST', `/api/incentive-claims/${w.id}/create`, { token: w.token, body: { rank_id: 2, incentive_id: 2 } });
  expect(claimed.status, claimed.body.message).toBe(200);
}, 120_000);
afterAll(async () => {
  await app?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-admin-incentives-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

const menu = (page: Page, name: RegExp) => page.getByRole('menuitem', { name }).click();
const row = (page: Page, text: string) => page.locator('tbody tr').filter({ hasText: text });

describe('incentives back office', () => {
  it('an admin approves a pending claim (award bonuses paid), edits an incentive with a picture, and changes an award percentage', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);

    // ---- Incentive Requests: the member's claim waits, shown as 'Pending Request'.
    await menu(page, /incentive requests/i);
    await page.waitForURL(/\/admin\/incentive-claims/);
    await expect.poll(() => page.getByTestId('pending-count').textContent()).toBe('1 pending request');
    const request = row(page, winner.username);
    await expect.poll(() => request.textContent()).toContain('Pending Request');
    const text = (await request.textContent()) ?? '';
    for (const shown of [`${winner.first_name} ${winner.last_name}`, 'Bronze', 'Supervisor', 'Android phone', '₦120,000.00', '50']) expect(text).toContain(shown);
    await fullShot(page, 'admin-incentives-requests');

    await confirmInDialog(page, { open: () => request.getByRole('button', { name: /approve/i }).click(), text: 'Approve this request?', shot: 'admin-incentives-approve-confirm' });
    await expectToast(page, 'Incentive approved successfully');
    await expect.poll(() => page.getByText('There are no requests').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('pending-count').textContent()).toBe('0 pending requests');
    await fullShot(page, 'admin-incentives-requests-empty');

    // The approval pays the award bonuses: the sponsor 5% of ₦120,000, the active direct downline 2%.
    await settleConsumers(app.t.runtime.db);
    expect(await awardTotal(sponsor.id, admin)).toBe(6_000);
    expect(await awardTotal(left.id, admin)).toBe(2_400);

    // The approved request is listed under its status.
    await page.getByRole('combobox', { name: /request status/i }).click();
    await page.getByRole('option', { name: /^approved$/i }).click();
    await expect.poll(() => row(page, winner.username).textContent()).toContain('Approved');
    await fullShot(page, 'admin-incentives-requests-approved');

    // ---- Official Ranks and Incentives: edit the Manager's laptop, with a picture.
    await menu(page, /^incentives$/i);
    await page.waitForURL(/\/admin\/incentives$/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(7);
    await fullShot(page, 'admin-incentives-list');
    await row(page, 'Laptop').getByRole('link', { name: /edit/i }).click();
    await page.waitForURL(/\/admin\/incentives\/3$/);
    await expect.poll(() => page.locator('input[name=incentive]').inputValue()).toBe('Laptop');
    await page.locator('input[name=incentive]').fill('Laptop and printer');
    await page.locator('input[name=worth]').fill('500000');
    await page.locator('input[type=file]').setInputFiles({ name: 'laptop.png', mimeType: 'image/png', buffer: colourPng(96, [46, 125, 50]) });
    await expect.poll(() => page.locator('.previews img, [class*=previews] img').count()).toBeGreaterThan(0);
    await fullShot(page, 'admin-incentives-edit');
    await page.getByRole('button', { name: /^save$/i }).click();
    await expectToast(page, 'Incentive updated successfully');
    await page.waitForURL(/\/admin\/incentives$/);
    const laptop = row(page, 'Laptop and printer');
    await expect.poll(() => laptop.textContent()).toContain('₦500,000.00');
    await expect.poll(() => laptop.locator('img').count()).toBe(1);
    await expect.poll(() => laptop.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    await fullShot(page, 'admin-incentives-list-edited');
    const events = await app.http.call('GET', `/api/admin/events?filter=${encodeURIComponent(JSON.stringify({ stream_id: 'incentive-3', type: 'IncentiveUpdated' }))}`, { token: admin });
    expect(events.body).toEqual([expect.objectContaining({ data: expect.objectContaining({ changes: expect.objectContaining({ incentive: 'Laptop and printer', worth_kobo: 50_000_000 }) }) })]);

    // ---- Ranks, with the award bonus cards: the upline percentage goes from 5 to 6.
    await menu(page, /^ranks$/i);
    await page.waitForURL(/\/admin\/ranks$/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(7);
    const upline = page.getByTestId('card-award_winner_sponsor_bonus_percentage');
    await expect.poll(() => upline.locator('input').inputValue()).toBe('5');
    await upline.locator('input').fill('6');
    await upline.getByRole('button', { name: /^save$/i }).click();
    await expectToast(page, 'Setting updated successfully');
    await expect.poll(() => upline.textContent()).toContain('6%');
    await fullShot(page, 'admin-incentives-ranks');
    expect((await app.http.call('GET', '/api/settings/all', { token: admin })).body.data.award_winner_sponsor_bonus_percentage).toBe(6);

    await page.locator('a[href$="/admin/ranks/3"]').click();
    await page.waitForURL(/\/admin\/ranks\/3$/);
    await expect.poll(() => page.locator('input[name=name]').inputValue()).toBe('Manager');
    await page.locator('textarea[name=description]').fill('Leads a team of supervisors.');
    await fullShot(page, 'admin-incentives-rank-edit');
    await page.getByRole('button', { name: /^save$/i }).click();
    await expectToast(page, 'Rank updated successfully');
    await page.waitForURL(/\/admin\/ranks$/);
    await expect.poll(() => row(page, 'Leads a team of supervisors.').count()).toBe(1);
  });

  it('finance staff read the same screens without approve, edit or save', async () => {
    const h = app.http;
    const again = await h.call('POST', `/api/incentive-claims/${sponsor.id}/create`, { token: (await h.call('POST', '/api/auth/login', { body: { username: sponsor.username, password: 'correct horse battery' } })).body.data.access_token, body: { rank_id: 1, incentive_id: 1 } });
    expect(again.status, again.body.message).toBe(200);
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/incentive-claims`);
    await expect.poll(() => row(page, sponsor.username).textContent()).toContain('Pending Request');
    expect(await page.getByRole('button', { name: /approve|decline/i }).count()).toBe(0);
    await fullShot(page, 'admin-incentives-finance-requests');
    await page.goto(`${app.base}/admin/incentives`);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(7);
    expect(await page.getByRole('link', { name: /edit|create/i }).count()).toBe(0);
    await page.goto(`${app.base}/admin/ranks`);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(7);
    expect(await page.getByRole('button', { name: /^save$/i }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /edit|create/i }).count()).toBe(0);
  });
});
