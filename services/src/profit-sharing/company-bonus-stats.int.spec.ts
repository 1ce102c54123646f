import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { creditWallet, withhold } from '../../test/wallet';
import { projectWalletLedgerAt } from '../compensation/projections';

/**
 * The admin dashboard's bonus totals (GET /bonuses/bonus-stats?type=) come from the wallet ledger's
 * credited totals per company day (daily_bonus_totals), not from its lines: a period starts at a
 * Lagos midnight (UTC+1), so a credit at 00:30 in Lagos is today's although it is yesterday's in
 * UTC, and one at 23:59 in Lagos is yesterday's. Withheld bonuses are not earnings; a bonus event
 * delivered to the ledger twice counts once.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
});
afterAll(async () => t.close());

const at = (iso: string) => new Date(iso);

describe('the company bonus totals of a period', () => {
  it('count each credit on its Lagos day, once, and leave withheld bonuses out', async () => {
    const member = await h.activeMember();
    let admin = await h.adminToken();
    await settleConsumers(t.runtime.db);
    const stats = async (type: string) => {
      const answer = await h.call('GET', `/api/bonuses/bonus-stats?type=${type}`, { token: admin });
      expect(answer.status, answer.body.message).toBe(200);
      return answer.body.data;
    };
    const before = await stats('all');

    // The member's own activation credited its sponsor today (real time): the periods below are all after it, so only `all` counts it.
    // Now: Monday 15 March 2027, 11:00 in Lagos.
    t.clock.now = at('2027-03-15T10:00:00Z');
    await creditWallet(t.runtime.db, member.id, 1_000_00, at('2027-03-14T23:30:00Z'), 'matching'); // 00:30 on the 15th in Lagos: today
    await creditWallet(t.runtime.db, member.id, 2_000_00, at('2027-03-14T22:59:00Z'), 'matching'); // 23:59 on the 14th: this month
    await creditWallet(t.runtime.db, member.id, 4_000_00, at('2027-02-28T23:30:00Z'), 'referral'); // 00:30 on 1 March: this month
    await creditWallet(t.runtime.db, member.id, 8_000_00, at('2027-02-28T22:30:00Z'), 'referral'); // 23:30 on 28 February: this year
    await creditWallet(t.runtime.db, member.id, 16_000_00, at('2026-12-31T23:30:00Z'), 'global_profit'); // 00:30 on 1 January: this year
    await creditWallet(t.runtime.db, member.id, 32_000_00, at('2026-12-31T22:30:00Z'), 'global_profit'); // 23:30 on 31 December 2026
    await withhold(t.runtime.db, member.id, 64_000_00, at('2027-03-15T09:00:00Z'));
    await settleConsumers(t.runtime.db);
    admin = await h.adminToken(); // signed in again: the clock moved past the first session's idle time

    expect(await stats('today')).toMatchObject({ matching_bonus_sum: 1_000, referral_bonus_sum: 0, global_profit_sum: 0, global_profit_count: 0, total_bonus_sum: 1_000, type: 'today' });
    expect(await stats('month')).toMatchObject({ matching_bonus_sum: 3_000, referral_bonus_sum: 4_000, global_profit_sum: 0, total_bonus_sum: 7_000, type: 'month' });
    expect(await stats('year')).toMatchObject({ matching_bonus_sum: 3_000, referral_bonus_sum: 12_000, global_profit_sum: 16_000, global_profit_count: 1, total_bonus_sum: 31_000 });
    const all = await stats('all');
    expect(all.total_bonus_sum).toBe(before.total_bonus_sum + 63_000);
    expect(all.global_profit_count).toBe(before.global_profit_count + 2);
    expect(all.matching_bonus_sum).toBe(before.matching_bonus_sum + 3_000);

    // The ledger handed the same bonus events again (a redelivered batch): the totals stay.
    const { rows } = await sql<{ global_position: number }>`select global_position from events where type = 'BonusCredited' order by global_position`.execute(t.runtime.db);
    await t.runtime.db.transaction().execute((trx) => projectWalletLedgerAt(trx, rows.map((r) => Number(r.global_position))));
    expect((await stats('all')).total_bonus_sum).toBe(all.total_bonus_sum);

    // The totals are the ledger's lines summed by Lagos day and kind, row for row.
    const byDay = await sql<{ day: string; kind: string; kobo: string; n: string }>`
      select (recorded_at at time zone 'Africa/Lagos')::date::text as day, kind, sum(amount)::text as kobo, count(*)::text as n
      from wallet_entries where entry = 'credited' group by 1, 2 order by 1, 2`.execute(t.runtime.db);
    const totals = await sql<{ day: string; kind: string; kobo: string; n: string }>`
      select day::text, kind, credited_kobo::text as kobo, credited_count::text as n from daily_bonus_totals order by 1, 2`.execute(t.runtime.db);
    expect(totals.rows).toEqual(byDay.rows);
    expect(totals.rows.length).toBeGreaterThan(5);
  });
});
