import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BonusCredited, type BonusWithheld, walletStream } from '../services/src/compensation/events';
import { settleConsumers } from '../services/test/consumers';
import type { Db } from '../services/src/core/db';
import { appendToStream } from '../services/src/core/event-store';
import { type MemberAppTest, expectToast, fullShot, phone, screenfuls, signIn, startMemberApp, screenshotOnFailure } from './member-app';

/**
 * The member dashboard and wallet (seed 000 §2.5, §2.7) in a real browser, for a member whose
 * bonuses come from real activations and an upgrade in their network, plus bonuses of the periodic
 * kinds (matching, repurchase, unilevel, signee, global profit, and one withheld matching bonus)
 * recorded on their wallet stream the way the compensation policies record them.
 */
let app: MemberAppTest;

beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => {
  await app?.close();
});
afterEach(screenshotOnFailure(() => app));

/** Runs every consumer of the log until a whole pass has nothing left to apply. */
const settle = () => settleConsumers(app.t.runtime.db);

type Bonus = BonusCredited | BonusWithheld;

/** Bonuses appended onto the member's wallet stream under its lock, as the bonus policies do. */
async function recordOnWallet(db: Db, memberId: string, bonuses: Bonus[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`stream:${walletStream(memberId)}`}, 0))`.execute(trx);
    await appendToStream(trx, walletStream(memberId), bonuses, { expectedVersion: 'any', metadata: { actor: { type: 'system', id: 'test' }, now: new Date().toISOString() } });
  });
}

const cause = (eventType: string, streamId: string, memberId: string | null) => ({ event_id: randomUUID(), event_type: eventType, stream_id: streamId, member_id: memberId });

/** Digits of a naira amount as the screens show it: ₦ and US grouping, two decimals. */
const naira = (n: number) => `₦${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Waits for what the page shows (answers and re-fetches take their time). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

async function text(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).textContent()) ?? '').trim();
}

describe('member dashboard and wallet', () => {
  it('shows the bonuses of a real network in naira, explains every wallet line, pages the table, sets a withdrawal amount, withdraws and claims the incentive', async () => {
    const { http } = app;
    // A (Bronze ₦35,000) under the company root. B (Silver ₦70,000) placed and sponsored by A.
    // The worker runs the consumers after each payment (settle), as it would in production.
    const a = await http.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    await settle();
    const b = await http.registeredMember({ referrer: a.username, package_id: 3 }, { asParent: true });
    await http.payByReceipt(b);
    await settle();
    // D (Bronze) placed under A but sponsored by the root: A earns the placement bonus, not a referral.
    const d = await http.registeredMember({ referrer: a.username, placer: 'herbalhq', package_id: 2 });
    await http.payByReceipt(d);
    await settle();
    // C (Bronze) placed under B, sponsored by A.
    const c = await http.registeredMember({ referrer: b.username, placer: a.username, package_id: 2 });
    await http.payByReceipt(c);
    await settle();
    // B upgrades Silver → Gold: difference ₦140,000 − ₦70,000 = ₦70,000.
    await http.payByReceipt(b, { upgradeTo: 4 });
    await settle();

    // The periodic kinds, recorded on A's wallet as their policies record them (kobo).
    const matchingCycle = cause('MatchingCycleClosed', 'matching-cycle-2026-11-21', null);
    const matchingInputs = { cycle_end: '2026-11-21', carried_left: 0, carried_right: 0, new_left: 1_150, new_right: 1_100, pairs: 11, total_pv: 100, unit_point_value_kobo: 100_000, percent: 10, cap_kobo: 10_000_000 };
    await recordOnWallet(app.t.runtime.db, a.id, [
      { type: 'BonusCredited', data: { kind: 'signee', beneficiary_id: a.id, amount_kobo: 250_000, cause: cause('StockistApproved', 'stockist-x', c.id), generation: null, inputs: { base_kobo: 5_000_000, percentage: 5 } } },
      { type: 'BonusCredited', data: { kind: 'repurchase', beneficiary_id: a.id, amount_kobo: 123_450, cause: cause('ProductPurchasePaid', 'purchase-x', c.id), generation: null, inputs: { base_kobo: 1_234_500, percentage: 10 } } },
      { type: 'BonusCredited', data: { kind: 'unilevel', beneficiary_id: a.id, amount_kobo: 98_765, cause: cause('ProductPurchasePaid', 'purchase-y', b.id), generation: 1, inputs: { base_kobo: 1_975_300, percentage: 5 } } },
      // A cycle of 11 pairs: 11 × 100 PV × ₦1,000 × 10% = ₦110,000, paid up to Bronze's cap of ₦100,000.
      { type: 'BonusCredited', data: { kind: 'matching', beneficiary_id: a.id, amount_kobo: 10_000_000, cause: matchingCycle, generation: null, inputs: matchingInputs } },
      { type: 'BonusWithheld', data: { kind: 'matching', beneficiary_id: a.id, amount_kobo: 1_000_000, reason: 'matching_cap_reached', cause: matchingCycle, generation: null, inputs: matchingInputs } },
      {
        type: 'BonusCredited',
        data: {
          kind: 'global_profit', beneficiary_id: a.id, amount_kobo: 1_000_000, cause: cause('GlobalProfitShared', 'global-profit-x', null), generation: null,
          inputs: { share_date: '2026-12-31', pool_kobo: 100_000_000, first_percentage: 40, second_percentage: 60, eligible_count: 10, equal_share_kobo: 400_000, cpv: 175, total_cpv: 17_500, cpv_share_kobo: 600_000 },
        },
      },
    ]);
    await settle();

    // A's money (naira), from the rules of BUSINESS-RULES.md §3:
    //   referral: B's activation 10% of ₦70,000 = 7,000 + C's activation 10% of ₦35,000 = 3,500 → 10,500
    //   placement: D's activation 3% of ₦35,000 = 1,050 → Referral Bonus card 11,550
    //   upgrade: B's upgrade 8% (Gold table, gen 1) of ₦70,000 = 5,600
    //   welcome 2% of ₦35,000 = 700; equilibrium (B and D both active) 2% of ₦35,000 = 700 — each on its own card
    //   recorded: signee 2,500, repurchase 1,234.50, unilevel 987.65, matching 100,000, global profit 10,000;
    //   the withheld ₦10,000 of matching above the cap counts nowhere.
    const referralCard = 10_500 + 1_050;
    // Total earned is every kind credited (contracts/earnings.ts): the dashboard and the wallet show one figure.
    const totalEarned = referralCard + 5_600 + 100_000 + 1_234.5 + 987.65 + 2_500 + 10_000 + 700 + 700; // 133,272.15
    const totalBonus = totalEarned;
    expect(totalEarned).toBeCloseTo(133_272.15, 2);
    const stats = await http.call('GET', `/api/bonuses/${a.id}/bonus-stats`, { token: a.token });
    expect(stats.body.data).toMatchObject({ referral_bonus: 10_500, placement_bonus: 1_050, upgrade_bonus: 5_600, welcome_bonus: 700, equilibrium_bonus: 700, total_wallet_earned: 133_272.15 });

    // ── Dashboard ──
    const page = await app.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.base });
    await signIn(page, app.base, a, /\/user\/dashboard/);
    await poll(() => text(page, 'package-name')).toBe('Bronze');
    expect(await text(page, 'package-status')).toBe('Activated');
    await poll(() => text(page, 'stat-referral-amount')).toBe('₦11,550.00');
    expect(naira(referralCard)).toBe('₦11,550.00');
    expect(await text(page, 'stat-matching-amount')).toBe('₦100,000.00');
    expect(await text(page, 'stat-repurchase-amount')).toBe(naira(1_234.5));
    expect(await text(page, 'stat-unilevel-amount')).toBe('₦987.65');
    expect(await text(page, 'stat-upgrade-amount')).toBe('₦5,600.00');
    expect(await text(page, 'stat-signee-amount')).toBe('₦2,500.00');
    expect(await text(page, 'stat-global-profit-amount')).toBe('₦10,000.00');
    expect(await text(page, 'stat-welcome-amount')).toBe('₦700.00');
    expect(await text(page, 'stat-equilibrium-amount')).toBe('₦700.00');
    expect(await text(page, 'stat-total-earned-amount')).toBe('₦133,272.15');
    // Rank 1 (Associate) is below the global-profit rank 5.
    expect(await text(page, 'global-profit-badge')).toBe('Not Qualified');

    // CPV: A 25 PV + B 50 (+50 at the upgrade to Gold) + D 25 + C 25 = 175; 1 PV = setting ₦1,000.
    await poll(() => text(page, 'pv-rate')).toBe('1 PV = 1,000 NGN');
    await poll(() => text(page, 'cpv-value')).toBe('175 PV');

    await poll(() => text(page, 'general-message-subject')).toBe('Monthly leadership call');
    expect(await text(page, 'general-message-body')).toBe('Join the leadership call on the first Saturday of every month at 4 pm.');

    // Referral link: ref is the member; a placement named in the downline becomes ref and the member the sponsor (placer).
    expect(await text(page, 'referral-link')).toBe(`${app.base}/register?ref=${a.username}`);
    await page.getByTestId('copy-referral-link').click();
    await poll(() => text(page, 'copy-referral-link')).toBe('Referral Link Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.base}/register?ref=${a.username}`);
    await page.locator('input[name=placement]').fill(b.username);
    expect(await text(page, 'referral-link')).toBe(`${app.base}/register?ref=${b.username}&placer=${a.username}`);
    expect(await text(page, 'copy-referral-link')).toBe('Copy Referral Link');

    // Invite a friend, placed under B: the mailed link carries the same placement and sponsor.
    // The form's schema loads after the page is drawn (lib/lazy-resolver.ts): the same messages as before.
    const inviteForm = page.getByRole('form', { name: 'Invite a friend' });
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await inviteForm.getByText('The email field is required.').waitFor();
    await inviteForm.locator('input[name=email]').fill('not-an-email');
    await inviteForm.getByText('The email must be a valid email address.').waitFor();
    const friend = `friend-${Date.now()}@example.test`;
    await inviteForm.locator('input[name=email]').fill(friend);
    await inviteForm.getByText('The email must be a valid email address.').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await expectToast(page, 'Friend invited successfully');
    const invitation = await app.t.mail.waitFor((m) => m.to.includes(friend));
    expect(invitation.text).toContain(`/register?ref=${b.username}&placer=${a.username}`);

    // Current incentive: rank 1's, with nothing claimed yet.
    await poll(() => text(page, 'incentive-text')).toBe('Branded polo shirt and herbal starter kit');
    expect(await text(page, 'claims-empty')).toBe('There are no claimed incentives');
    await fullShot(page, 'dashboard-desktop');

    await page.getByTestId('claim-incentive').click();
    await expectToast(page, 'incentive claimed successfully');
    await poll(() => text(page, 'claim-status')).toBe('Claim processing');
    const claimsTable = page.getByRole('table', { name: 'Claimed incentives' });
    await poll(() => claimsTable.locator('tbody tr').count()).toBe(1);
    expect(await claimsTable.locator('tbody tr').first().textContent()).toMatch(/^1Branded polo shirt and herbal starter kit.*Processing0 PV/);
    await fullShot(page, 'dashboard-claimed-desktop');

    // ── Wallet summary ──
    await page.getByRole('link', { name: 'Wallet' }).click();
    await page.waitForURL(/\/user\/wallet$/);
    await poll(() => text(page, 'wallet-total-bonus-amount')).toBe(naira(totalBonus));
    expect(naira(totalBonus)).toBe('₦133,272.15');
    expect(await text(page, 'wallet-total-withdrawn-amount')).toBe('₦0.00');
    expect(await text(page, 'wallet-balance-amount')).toBe('₦133,272.15');
    expect(await text(page, 'wallet-total-bonus')).toContain('₦10,000.00 withheld and not counted');

    // 6 bonuses of the network + 6 recorded = 12 lines: 10 on page 1, newest first, each explained as the api explains it.
    const bonusTable = page.getByRole('table', { name: 'Bonuses' });
    const api1 = (await http.call('GET', `/api/wallet/${a.id}/bonuses?page=1`, { token: a.token })).body.data;
    expect(api1).toMatchObject({ total: 12, last_page: 2, per_page: 10 });
    await poll(() => bonusTable.locator('tbody tr').count()).toBe(10);
    expect(await bonusTable.getByTestId('bonus-explanation').allTextContents()).toEqual(api1.data.map((r: { explanation: string }) => r.explanation));
    expect(await bonusTable.locator('tbody tr').first().textContent()).toContain('Global profit');
    // The withheld line says it was not paid and why, and looks different.
    const withheld = bonusTable.locator('tbody tr[data-entry=withheld]');
    expect(await withheld.count()).toBe(1);
    expect(await withheld.textContent()).toMatch(/Not paid.*Matching bonus.*₦10,000\.00/s);
    expect(await withheld.textContent()).toContain("Matching bonus for the cycle ending 2026-11-21: 11 pairs of 100 PV × ₦1,000 × 10%. Not paid: the part above your package's matching cap of ₦100,000 per cycle.");
    expect(await withheld.locator('td').nth(1).locator('span').evaluate((amount) => getComputedStyle(amount).textDecorationLine)).toBe('line-through');
    expect(await bonusTable.textContent()).toContain(`Upgrade bonus for ${b.username}'s upgrade, generation 1: 8% of ₦70,000.`);
    // The first visit of a lazily loaded page mounts the layout again: let its drawer finish sliding in.
    await page.waitForTimeout(600);
    await fullShot(page, 'wallet-summary-desktop');

    // Two pages: two page buttons; page 2 holds the two oldest lines.
    const pager = page.getByRole('navigation', { name: 'Bonuses pages' });
    expect(await pager.getByRole('button', { name: /page \d+$/ }).allTextContents()).toEqual(['1', '2']);
    await pager.getByRole('button', { name: 'Go to page 2' }).click();
    await poll(() => bonusTable.locator('tbody tr').count()).toBe(2);
    const api2 = (await http.call('GET', `/api/wallet/${a.id}/bonuses?page=2`, { token: a.token })).body.data;
    expect(await bonusTable.getByTestId('bonus-explanation').allTextContents()).toEqual(api2.data.map((r: { explanation: string }) => r.explanation));
    // The oldest line: A's own activation.
    expect(api2.data.at(-1).explanation).toBe(`Welcome bonus for ${a.username}'s activation: 2% of ₦35,000.`);
    expect(await bonusTable.locator('tbody tr').last().textContent()).toContain('₦700.00');
    await fullShot(page, 'wallet-summary-page2-desktop');


    // The global-profit table lists the share.
    const profits = page.getByRole('table', { name: 'Global profits' });
    await poll(() => profits.locator('tbody tr').count()).toBe(1);
    expect(await profits.locator('tbody tr').first().textContent()).toBe('₦10,000.0031 Dec 2026');

    // ── Transactions ──
    await page.getByRole('tab', { name: 'Transactions' }).click();
    expect(await text(page, 'withdrawal-charges-notice')).toContain('third-party bank charges');
    expect(await text(page, 'withdrawal-charges-notice')).toContain('1.5% of the amount, at most ₦2,000.00');
    expect(await text(page, 'withdrawals-empty')).toBe('There are no withdrawals');
    const standing = page.getByRole('form', { name: 'Withdrawal amount' });
    await standing.locator('input[name=withdrawal_amount]').fill('five thousand');
    await standing.getByRole('button', { name: 'Save amount' }).click();
    await expectToast(page, 'withdrawal amount is invalid');
    await standing.locator('input[name=withdrawal_amount]').fill('5000');
    await standing.getByRole('button', { name: 'Save amount' }).click();
    await expectToast(page, 'Withdrawal amount updated successfully');
    await poll(() => text(page, 'standing-amount')).toBe('₦5,000.00');
    const me = await http.call('GET', '/api/auth/user', { token: a.token });
    expect(me.body.data.withdrawal_amount).toBe(5_000);

    // Withdraw now needs verified bank details; with them, ₦3,000 costs 1.5% = ₦45.
    await page.getByTestId('withdraw-needs-bank').waitFor();
    const bank = await http.call('PUT', `/api/users/${a.id}/update-bank-details`, { token: a.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } });
    expect(bank.status, bank.body.message).toBe(200);
    await page.reload();
    const withdraw = page.getByRole('form', { name: 'Withdraw now' });
    await withdraw.locator('input[name=amount]').fill('3000');
    await poll(() => withdraw.textContent()).toContain('Charge ₦45.00 · you receive ₦2,955.00');
    expect(await text(page, 'available-balance')).toBe(naira(totalBonus));
    await withdraw.getByRole('button', { name: 'Withdraw' }).click();
    await expectToast(page, 'Withdrawal Request successful');
    const history = page.getByRole('table', { name: 'Withdrawal history' });
    await poll(() => history.locator('tbody tr').count()).toBe(1);
    expect(await history.locator('tbody tr').first().textContent()).toMatch(/^₦3,000\.00.*₦45\.00Queued(Withdrawal)/);
    // The available balance drops at once, without a reload, while the wallet's totals (the
    // worker's projection, not run yet here) still say the old figure.
    await poll(() => text(page, 'available-balance')).toBe(naira(totalBonus - 3_000));
    expect((await http.call('GET', `/api/bonuses/${a.id}/wallet-balance`, { token: a.token })).body.data.balance).toBe(totalBonus);
    // The worker's part: once the totals count the withdrawal, the page shows the server's figure, taken off once.
    await settle();
    expect((await http.call('GET', `/api/bonuses/${a.id}/wallet-balance`, { token: a.token })).body.data.balance).toBeCloseTo(totalBonus - 3_000, 2);
    await page.waitForTimeout(4_500);
    expect(await text(page, 'available-balance')).toBe(naira(totalBonus - 3_000));
    // The time is Lagos time, named, whatever the browser's zone (this browser's is ${Intl.DateTimeFormat().resolvedOptions().timeZone}).
    const requested = await app.t.runtime.db.selectFrom('withdrawals').select('created_at').where('member_id', '=', a.id).executeTakeFirstOrThrow();
    const lagosTime = new Intl.DateTimeFormat('en-US', { timeZone: 'Africa/Lagos', hour: 'numeric', minute: '2-digit', hour12: true }).format(requested.created_at);
    expect(await history.locator('tbody tr').first().textContent()).toContain(`${lagosTime} WAT`);
    await fullShot(page, 'wallet-transactions-desktop');
    // The wallet summary's figures were read before the withdrawal: they follow it too.
    await page.getByRole('tab', { name: 'Wallet Summary' }).click();
    await poll(() => text(page, 'wallet-balance-amount')).toBe(naira(totalBonus - 3_000));
    expect(await text(page, 'wallet-total-withdrawn-amount')).toBe('₦3,000.00');

    // ── The same screens on a phone ──
    const mobile = await app.newPage(phone);
    await signIn(mobile, app.base, a, /\/user\/dashboard/);
    await poll(() => text(mobile, 'stat-total-earned-amount')).toBe('₦133,272.15');
    await poll(() => text(mobile, 'claim-status')).toBe('Claim processing');
    await screenfuls(mobile, 'dashboard-phone', 8);
    await mobile.goto(`${app.base}/user/wallet`);
    await poll(() => mobile.getByRole('table', { name: 'Bonuses' }).locator('tbody tr').count()).toBe(10);
    await screenfuls(mobile, 'wallet-summary-phone', 8);
    await mobile.goto(`${app.base}/user/wallet?tab=transactions`);
    await poll(() => mobile.getByRole('table', { name: 'Withdrawal history' }).locator('tbody tr').count()).toBe(1);
    // The three tabs fit a 390 px phone whole: "Statement" is not cut to "Stater".
    const tabs = mobile.getByRole('tablist', { name: 'Wallet sections' });
    expect(await tabs.getByRole('tab').allTextContents()).toEqual(['Wallet Summary', 'Transactions', 'Statement']);
    const shown = (await mobile.locator('.MuiTabs-scroller').first().boundingBox())!;
    for (const tab of await tabs.getByRole('tab').all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(shown.x);
      expect(box.x + box.width).toBeLessThanOrEqual(Math.min(shown.x + shown.width, 390) + 0.5);
    }
    await fullShot(mobile, 'wallet-tabs-phone');
    await screenfuls(mobile, 'wallet-transactions-phone', 4);
  }, 120_000);

  it('shows the empty states of a member who has earned nothing yet', async () => {
    const member = await app.http.activeMember({ package_id: 1 });
    await settle();
    const page = await app.newPage();
    await signIn(page, app.base, member, /\/user\/dashboard/);
    // Starter ₦15,000: the welcome bonus (2% = ₦300) is all they earned, on its card and in the total, as in the wallet.
    await poll(() => text(page, 'stat-total-earned-amount')).toBe('₦300.00');
    expect(await text(page, 'stat-welcome-amount')).toBe('₦300.00');
    expect(await text(page, 'stat-referral-amount')).toBe('₦0.00');
    await poll(() => text(page, 'claims-empty')).toBe('There are no claimed incentives');
    await page.goto(`${app.base}/user/wallet`);
    await poll(() => page.getByRole('table', { name: 'Bonuses' }).locator('tbody tr').count()).toBe(1);
    expect(await text(page, 'wallet-balance-amount')).toBe('₦300.00');
    await poll(() => text(page, 'global-profits-empty')).toBe('There are no global profits');
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await poll(() => text(page, 'withdrawals-empty')).toBe('There are no withdrawals');
    await fullShot(page, 'wallet-empty-desktop');
  });
});
