import { setTimeout as sleep } from 'node:timers/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { consumerLag, drainConsumer } from '../services/src/core/consumers';
import { genealogyProjection } from '../services/src/genealogy/projections';
import { tinyPng } from '../services/test/multipart';
import { type MemberAppTest, fullShot, phone, screenfuls, shots, signIn, startMemberApp, screenshotOnFailure } from './member-app';

/**
 * The member's Network structure (org chart) and Downlines screens in a real browser, over a
 * small real network registered through the api and projected by the genealogy worker:
 *
 *                 A
 *           B           C
 *        D     E     F    (empty)
 *      G(A) (empty)
 *
 * (placement; G's sponsor is A, everyone else's is their placement parent). A's direct downlines
 * are B, C, G; A's downline in tree order is B, D, G, E, C, F: 6 members, 2 pages of 5.
 * H is a member with no downline at all.
 */
let app: MemberAppTest;
type Member = Awaited<ReturnType<MemberAppTest['http']['registeredMember']>>;
let net: Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H', Member>;

/** Runs the genealogy projection until it has applied every committed event (as its own int test does). */
async function drainGenealogy(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const result = await drainConsumer(app.t.runtime.db, genealogyProjection);
    if (result.status === 'failed') throw new Error(`genealogy failed: ${result.error}`);
    const [lag] = await consumerLag(app.t.runtime.db, [genealogyProjection]);
    if (result.status === 'caught_up' && lag!.behind === 0) return;
    if (Date.now() > deadline) throw new Error(`genealogy did not catch up (${lag!.behind} behind)`);
    await sleep(20);
  }
}

beforeAll(async () => {
  app = await startMemberApp();
  const h = app.http;
  // Every member here is reserved as a parent, so no registration lands below them unasked.
  const H = await h.activeMember({ first_name: 'Halima', last_name: 'Bello' }, { asParent: true });
  const A = await h.activeMember({ first_name: 'Adaeze', last_name: 'Nwosu' }, { asParent: true });
  const B = await h.registeredMember({ first_name: 'Bayo', last_name: 'Adeyemi', referrer: A.username }, { asParent: true });
  const C = await h.registeredMember({ first_name: 'Chiamaka', last_name: 'Eze', referrer: A.username }, { asParent: true });
  const D = await h.registeredMember({ first_name: 'Dapo', last_name: 'Ogun', referrer: B.username }, { asParent: true });
  const E = await h.registeredMember({ first_name: 'Efe', last_name: 'Okoro', referrer: B.username }, { asParent: true });
  const F = await h.registeredMember({ first_name: 'Funke', last_name: 'Alade', referrer: C.username }, { asParent: true });
  const G = await h.registeredMember({ first_name: 'Gbenga', last_name: 'Salami', referrer: D.username, placer: A.username }, { asParent: true });
  // B has paid (active) and has a photo; the others are registered, not yet paid (inactive).
  await h.payByReceipt(B);
  const photo = await h.upload('POST', '/api/users/create-profile', {
    fields: { address: '3 Broad Street, Lagos', gender: 'male', phone: '08055550000' },
    files: { image: { bytes: tinyPng(), filename: 'b.png', type: 'image/png' } },
    token: B.token,
  });
  expect(photo.status, photo.body.message).toBe(200);
  net = { A, B, C, D, E, F, G, H };
  await drainGenealogy();
}, 120_000);
afterAll(async () => {
  await app?.close();
});
afterEach(screenshotOnFailure(() => app));

const node = (page: Page, username: string) => page.locator(`[data-testid="genealogy-node"][data-username="${username}"]`);
const inLeg = (page: Page, parent: string, leg: 'left' | 'right') => page.locator(`[data-testid="genealogy-node"][data-parent="${parent}"][data-leg="${leg}"]`);
const emptySlot = (page: Page, parent: string, leg: 'left' | 'right') => page.locator(`[data-testid="genealogy-empty"][data-parent="${parent}"][data-leg="${leg}"]`);
const usernames = async (locator: Locator) => locator.evaluateAll((els) => els.map((el) => el.getAttribute('data-username')));
const centreX = async (locator: Locator) => {
  const box = (await locator.boundingBox())!;
  return box.x + box.width / 2;
};

/** The chart's current pan and zoom, from the transform the pan/zoom library writes on the canvas. */
async function transformOf(page: Page): Promise<{ x: number; y: number; scale: number }> {
  const style = await page.getByTestId('genealogy-canvas').evaluate((el: HTMLElement) => el.style.transform);
  const m = /translate(?:3d)?\(\s*(-?[\d.]+)px,\s*(-?[\d.]+)px.*scale\(\s*([\d.]+)/.exec(style);
  if (!m) throw new Error(`unexpected transform "${style}"`);
  return { x: Number(m[1]), y: Number(m[2]), scale: Number(m[3]) };
}

describe('network structure (genealogy)', () => {
  it('draws the placement tree leg by leg with empty slots, pans, zooms and re-roots on a downline', async () => {
    const { A, B, C, D, E, F, G } = net;
    const page = await app.newPage();
    await signIn(page, app.base, A, /\/user\/dashboard/);
    await page.getByRole('link', { name: 'Network' }).click();
    await page.waitForURL(/\/user\/genealogy$/);
    await node(page, A.username).waitFor();

    // The counts of the member's own legs: B, D, E, G on the left; C, F on the right.
    expect(await page.getByTestId('genealogy-left-count').textContent()).toBe('4');
    expect(await page.getByTestId('genealogy-right-count').textContent()).toBe('2');
    expect(await page.getByTestId('genealogy-total-count').textContent()).toBe('6');

    // Each member in the leg the api placed them in; free legs drawn as empty slots.
    expect(await usernames(inLeg(page, A.username, 'left'))).toEqual([B.username]);
    expect(await usernames(inLeg(page, A.username, 'right'))).toEqual([C.username]);
    expect(await usernames(inLeg(page, B.username, 'left'))).toEqual([D.username]);
    expect(await usernames(inLeg(page, B.username, 'right'))).toEqual([E.username]);
    expect(await usernames(inLeg(page, C.username, 'left'))).toEqual([F.username]);
    expect(await emptySlot(page, C.username, 'right').count()).toBe(1);
    expect(await usernames(inLeg(page, D.username, 'left'))).toEqual([G.username]);
    expect(await emptySlot(page, D.username, 'right').count()).toBe(1);
    // 3 levels by default: G (level 3) is the last drawn level, so its legs are not drawn.
    expect(await page.locator(`[data-testid="genealogy-empty"][data-parent="${G.username}"]`).count()).toBe(0);
    // ... and on screen a left leg lies left of its parent, a right leg right of it.
    expect(await centreX(node(page, B.username))).toBeLessThan(await centreX(node(page, A.username)));
    expect(await centreX(node(page, C.username))).toBeGreaterThan(await centreX(node(page, A.username)));
    expect(await centreX(node(page, D.username))).toBeLessThan(await centreX(node(page, B.username)));
    expect(await centreX(node(page, E.username))).toBeGreaterThan(await centreX(node(page, B.username)));

    // Each node: name, username, package, state, leg counts, photo or the default one.
    const b = node(page, B.username);
    expect(await b.getByTestId('genealogy-node-name').textContent()).toBe('Bayo Adeyemi');
    expect(await b.textContent()).toContain(`@${B.username}`);
    expect(await b.textContent()).toContain('Bronze');
    expect(await b.getByTestId('genealogy-node-status').textContent()).toBe('Active');
    expect(await node(page, C.username).getByTestId('genealogy-node-status').textContent()).toBe('Inactive');
    expect(await b.getByTestId('genealogy-node-counts').textContent()).toBe('2Left1Right');
    await expect.poll(() => b.locator('img').first().getAttribute('src')).toMatch(/^\/storage\/photos\//);
    expect(await node(page, C.username).getByRole('img', { name: 'Default profile photo' }).count()).toBe(1);
    await fullShot(page, 'network-genealogy-desktop');

    // Dragging moves the chart; the drag starts on B, moves B along with it, and does not open B.
    await expect.poll(async () => (await transformOf(page)).y).toBe(16);
    const before = await transformOf(page);
    const start = { x: await centreX(b), y: (await b.boundingBox())!.y + 20 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 90, start.y + 60, { steps: 8 });
    await page.mouse.move(start.x + 180, start.y + 120, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await transformOf(page)).x).toBeGreaterThan(before.x + 100);
    const dragged = await transformOf(page);
    expect(dragged.y).toBeGreaterThan(before.y + 60);
    expect(dragged.scale).toBe(before.scale);
    expect(await centreX(b)).toBeGreaterThan(start.x + 100);
    expect(page.url()).not.toContain('member=');

    // Zoom in, then back to the first view.
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await transformOf(page)).scale).toBeGreaterThan(dragged.scale);
    await page.getByRole('button', { name: 'Reset view' }).click();
    await expect.poll(() => transformOf(page)).toEqual({ x: expect.closeTo(before.x, 0), y: 16, scale: before.scale });

    // Choosing B shows B's part of the tree, with the way back.
    await node(page, B.username).click();
    await page.waitForURL(new RegExp(`member=${B.id}`));
    await expect.poll(() => page.getByTestId('genealogy-node').first().getAttribute('data-username')).toBe(B.username);
    expect(await node(page, A.username).count()).toBe(0);
    expect(await usernames(inLeg(page, D.username, 'left'))).toEqual([G.username]);
    // G now is 2 levels below the top, so its free legs show.
    expect(await emptySlot(page, G.username, 'left').count()).toBe(1);
    expect(await page.getByTestId('genealogy-trail').textContent()).toContain(`@${B.username}`);
    await fullShot(page, 'network-genealogy-rerooted');
    await page.getByRole('button', { name: 'Up one level' }).click();
    await page.waitForURL(/\/user\/genealogy$/);
    await expect.poll(() => page.getByTestId('genealogy-node').first().getAttribute('data-username')).toBe(A.username);

    // Fewer levels: the last drawn level says how many members lie below it.
    await page.getByTestId('genealogy-levels').click();
    await page.getByRole('option', { name: '1 level' }).click();
    await page.waitForURL(/levels=1/);
    await expect.poll(() => page.getByTestId('genealogy-node').count()).toBe(3);
    expect(await node(page, B.username).getByTestId('genealogy-node-more').textContent()).toBe('3 more below');
    expect(await node(page, C.username).getByTestId('genealogy-node-more').textContent()).toBe('1 more below');
  });
});

describe('downlines', () => {
  it('shows the direct downlines as cards and pages the whole downline 5 at a time, in tree order', async () => {
    const { A, B, C, D, E, F, G } = net;
    const page = await app.newPage();
    await signIn(page, app.base, A, /\/user\/dashboard/);
    await page.getByRole('link', { name: 'Downlines' }).click();
    await page.waitForURL(/\/user\/downlines$/);

    // Sponsored members in the order they joined: G is A's though placed under D.
    await page.getByTestId('direct-downline-card').first().waitFor();
    expect(await usernames(page.getByTestId('direct-downline-card'))).toEqual([B.username, C.username, G.username]);
    const card = page.locator(`[data-testid="direct-downline-card"][data-username="${B.username}"]`);
    expect(await card.textContent()).toContain('Bayo Adeyemi');
    expect(await card.getByTestId('direct-downline-package').textContent()).toBe('Bronze');
    expect(await card.textContent()).toContain('3 downlines');
    await expect.poll(() => card.locator('img').first().getAttribute('src')).toMatch(/^\/storage\/photos\//);

    // The table: 6 downlines, page 1 holds 5 in tree order (left leg first).
    await page.getByTestId('downline-row').first().waitFor();
    expect(await usernames(page.getByTestId('downline-row'))).toEqual([B.username, D.username, G.username, E.username, C.username]);
    expect(await page.getByTestId('downlines-range').textContent()).toBe('Showing 1–5 of 6');
    const bRow = page.locator(`[data-testid="downline-row"][data-username="${B.username}"]`);
    const cells = await bRow.locator('td').allTextContents();
    expect(cells.slice(1)).toEqual([`@${B.username}`, 'Bronze', '3', B.email]);
    await fullShot(page, 'network-downlines-desktop');

    await page.getByRole('button', { name: 'Go to page 2' }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => usernames(page.getByTestId('downline-row'))).toEqual([F.username]);
    expect(await page.getByTestId('downlines-range').textContent()).toBe('Showing 6–6 of 6');
    await fullShot(page, 'network-downlines-page-2');
    await page.getByRole('button', { name: 'Go to page 1' }).click();
    await expect.poll(() => usernames(page.getByTestId('downline-row'))).toEqual([B.username, D.username, G.username, E.username, C.username]);
  });

  it('says so when a member has no downlines', async () => {
    const { H } = net;
    const page = await app.newPage();
    await signIn(page, app.base, H, /\/user\/dashboard/);
    await page.goto(`${app.base}/user/downlines`);
    expect(await page.getByTestId('direct-downlines-empty').textContent()).toBe('There are no direct downlines');
    expect(await page.getByTestId('downlines-empty').textContent()).toBe('There are no downlines');
    expect(await page.getByTestId('downline-row').count()).toBe(0);
    await fullShot(page, 'network-downlines-empty');

    await page.goto(`${app.base}/user/genealogy`);
    expect(await page.getByTestId('genealogy-empty-state').textContent()).toBe('There are no downlines');
    await node(page, H.username).waitFor();
    expect(await emptySlot(page, H.username, 'left').count()).toBe(1);
    expect(await emptySlot(page, H.username, 'right').count()).toBe(1);
    expect(await page.getByTestId('genealogy-node').count()).toBe(1);
    await fullShot(page, 'network-genealogy-empty');
  });

  it('shows both screens on a phone', async () => {
    const { A, B } = net;
    const page = await app.newPage(phone);
    await signIn(page, app.base, A, /\/user\/dashboard/);
    await page.goto(`${app.base}/user/genealogy`);
    await node(page, B.username).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shots}/network-genealogy-phone.png` });
    await page.getByRole('button', { name: 'Fit chart' }).click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${shots}/network-genealogy-phone-fit.png` });
    await page.goto(`${app.base}/user/downlines`);
    await page.getByTestId('downline-row').first().waitFor();
    await screenfuls(page, 'network-downlines-phone');
    await page.getByLabel('Toggle sidebar').click();
    await page.getByRole('link', { name: 'Network' }).waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${shots}/network-nav-phone.png` });
  });
});
