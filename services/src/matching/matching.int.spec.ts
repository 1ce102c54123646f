import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { walletLedgerProjection } from '../compensation/projections';
import { drainAll } from '../../test/consumers';
import { RuleViolation } from '../core/errors';
import { LOG_START, readLogBatch, verifyLog } from '../core/event-store';
import { pointsPolicy } from '../points/projections';
import { companyDate } from '../wallet/payout-schedule';
import { scheduledJobs } from '../worker/schedules';
import { closeMatchingCycle } from './commands';
import { dueCycleEnds } from './policies';
import { payMatchingCycle } from './projections';
import type { MatchingCycleClosed } from './events';
import type { RecordedEvent } from '../core/event-store';
import { compareWithLive, discardRebuild } from '../core/rebuild';
import { findReadModel, rebuildReadModel } from '../read-models';
import { sql } from 'kysely';

/** The `matching` read model rebuilt from the log beside the live tables, compared row for row, then dropped. */
async function rebuiltMatchingDiffers() {
  const model = findReadModel('matching')!;
  const { schema } = await rebuildReadModel(t.runtime.db, model, { swap: false });
  try {
    return await compareWithLive(t.runtime.db, schema, model.tables);
  } finally {
    await discardRebuild(t.runtime.db, model.name, { inline: true });
  }
}
const matchingTables = async () => ({
  cycles: (await sql`select * from matching_cycles order by cycle_end`.execute(t.runtime.db)).rows,
  results: (await sql`select * from matching_results order by cycle_end, member_id`.execute(t.runtime.db)).rows,
  carry: (await sql`select * from matching_carry order by member_id`.execute(t.runtime.db)).rows,
});

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
});
afterAll(async () => t.close());

const shiftDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function drain(...consumers: Array<typeof pointsPolicy>) {
  for (const consumer of consumers) expect((await drainAll(t.runtime.db, consumer)).status).toBe('caught_up');
}

/** Every matching result recorded, as [member, entry, kobo, reason], sorted. */
async function matchingEntries(cycleEnd?: string) {
  let query = t.runtime.db.selectFrom('wallet_entries').select(['member_id', 'entry', 'amount', 'reason', 'inputs']).where('kind', '=', 'matching');
  if (cycleEnd) query = query.where(({ ref, eb }) => eb(ref('inputs', '->>').key('cycle_end' as never), '=', cycleEnd as never));
  const rows = await query.execute();
  return rows.map((r) => [r.member_id, r.entry, r.amount, r.reason] as const).sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
}

async function matchingEventCount() {
  const row = await t.runtime.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).where('type', 'in', ['BonusCredited', 'BonusWithheld']).where(({ ref, eb }) => eb(ref('data', '->>').key('kind' as never), '=', 'matching' as never)).executeTakeFirstOrThrow();
  return Number(row.n);
}

const sorted = <T extends readonly unknown[]>(rows: T[]) => rows.sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));

describe('the matching bonus, cycle by cycle, through activations, the points and matching policies and the wallet', () => {
  it('pays pairs to the kobo, carries the rest forward, caps, withholds, and pays each cycle once', async () => {
    // Seeded plan: a pair is 100 PV, 1 PV = ₦1,000, 10% → one pair = ₦10,000 = 1,000,000 kobo.
    // PV: Starter 10, Bronze 25, Silver 50, Gold 100, Diamond 200, Crown 400. Caps: Starter ₦50,000, Crown ₦1,600,000.
    //
    // root ─L─ A (Bronze 25) ─L─ AL (Gold 100) ─L─ AL2 (Gold 100)
    //      │                 └R─ AR (Silver 50) ─L─ AR2 (Silver 50)
    //      │                                    └R─ AR3 (Silver 50)
    //      └R─ S (Starter 10) ─L─ SL (Crown 400) ─L─ SL2 (Crown 400) ─L─ I (never paid) ─L─ IL (Gold 100), ─R─ IR (Gold 100)
    //                         │                                      └R─ Y (Bronze 25) ─L─ YL (Gold 100)
    //                         │                                                        └R─ YR (never paid) ─L─ YR2 (Gold 100)
    //                         └R─ SR (Crown 400) ─L─ SR2 (Diamond 200)
    const root = await h.rootToken();
    const A = await h.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    const AL = await h.activeMember({ referrer: A.username, package_id: 4 }, { asParent: true });
    const AR = await h.activeMember({ referrer: A.username, package_id: 3 }, { asParent: true });
    await h.activeMember({ referrer: AL.username, package_id: 4 });
    const AR2 = await h.activeMember({ referrer: AR.username, package_id: 3 }, { asParent: true });
    await h.activeMember({ referrer: AR.username, package_id: 3 });
    const S = await h.activeMember({ referrer: 'herbalhq', package_id: 1 }, { asParent: true });
    const SL = await h.activeMember({ referrer: S.username, package_id: 6 }, { asParent: true });
    const SR = await h.activeMember({ referrer: S.username, package_id: 6 }, { asParent: true });
    const SL2 = await h.activeMember({ referrer: SL.username, package_id: 6 }, { asParent: true });
    await h.activeMember({ referrer: SR.username, package_id: 5 });
    const I = await h.registeredMember({ referrer: SL2.username, package_id: 2 }, { asParent: true });
    const Y = await h.activeMember({ referrer: SL2.username, package_id: 2 }, { asParent: true });
    await h.activeMember({ referrer: I.username, package_id: 4 });
    await h.activeMember({ referrer: I.username, package_id: 4 });
    await h.activeMember({ referrer: Y.username, package_id: 4 });
    const YR = await h.registeredMember({ referrer: Y.username, package_id: 2 }, { asParent: true });
    await h.activeMember({ referrer: YR.username, package_id: 4 });
    await drain(pointsPolicy);

    const today = companyDate(t.clock.now);
    const latest = dueCycleEnds({ today, frequencyDays: 7, lastClosed: null })[0]!;
    const cycle1 = shiftDays(latest, -14);

    // Cycle 1, closed by the command.
    expect(await closeMatchingCycle(t.runtime.commands, cycle1, t.clock.now)).toEqual({ cycleEnd: cycle1, closed: true });
    await drain(pointsPolicy, walletLedgerProjection);
    // A: L = AL 100 + AL2 100 = 200, R = AR 50 + AR2 50 + AR3 50 = 150 → 1 pair = ₦10,000; 100 and 50 carry.
    // S: L = SL 400 + SL2 400 + (I 0 + 100 + 100) + (Y 25 + 100 + 0 + 100) = 1,225, R = 400 + 200 = 600 → 6 pairs = ₦60,000:
    //    ₦50,000 (Starter cap) credited, ₦10,000 withheld (cap).
    // SL2: L = 200, R = 225 → 2 pairs, but its left child I never paid: not qualified, both legs carry whole.
    // I: L 100, R 100 → 1 pair, but I is not active: carries. Y: L 100, R = YR 0 + YR2 100 → 1 pair, YR not active: carries.
    // root: L = 25 + 200 + 150 = 375, R = 10 + 1,225 + 600 = 1,835 → 3 pairs = ₦30,000 (75 and 1,535 carry).
    // Everyone else has volume on one leg only, or less than 100 on one: nothing recorded.
    // Only money that will never be paid (S's part above the cap) is withheld.
    expect(await matchingEntries(cycle1)).toEqual(
      sorted([
        [A.id, 'credited', 1_000_000, null],
        [S.id, 'credited', 5_000_000, null],
        [S.id, 'withheld', 1_000_000, 'matching_cap_reached'],
        [root.id, 'credited', 3_000_000, null],
      ]),
    );
    const cycleRow = await t.runtime.db.selectFrom('matching_cycles').selectAll().where('cycle_end', '=', cycle1).executeTakeFirstOrThrow();
    expect(cycleRow).toMatchObject({ members_matched: 3, members_capped: 1, members_not_qualified: 3, pairs: 1 + 6 + 3, credited_kobo: 9_000_000, withheld_kobo: 1_000_000, paid_at: expect.any(Date) });
    // The cycle notes why the others were not paid and what carries.
    const notes = await t.runtime.db.selectFrom('matching_results').select(['member_id', 'outcome', 'reason', 'pairs', 'carried_left', 'carried_right']).where('cycle_end', '=', cycle1).where('outcome', '=', 'not_qualified').execute();
    expect(sorted(notes.map((n) => [n.member_id, n.reason, n.pairs, n.carried_left, n.carried_right] as const))).toEqual(
      sorted([
        [SL2.id, 'no_second_leg', 2, 200, 225],
        [I.id, 'inactive', 1, 100, 100],
        [Y.id, 'no_second_leg', 1, 100, 100],
      ]),
    );
    expect(await t.runtime.db.selectFrom('matching_results').select(['outcome', 'credited_kobo', 'withheld_kobo', 'carried_left', 'carried_right']).where('cycle_end', '=', cycle1).where('member_id', '=', S.id).executeTakeFirstOrThrow()).toEqual({
      outcome: 'capped',
      credited_kobo: 5_000_000,
      withheld_kobo: 1_000_000,
      carried_left: 625,
      carried_right: 0,
    });

    // The wallet table explains each row.
    const sWallet = await h.call('GET', `/api/wallet/${S.id}/bonuses`, { token: admin });
    expect(sWallet.status).toBe(200);
    const sRows = sWallet.body.data.data as Array<{ entry: string; amount: number; kind: string; explanation: string }>;
    expect(sRows.find((r) => r.entry === 'credited')).toMatchObject({ kind: 'matching', amount: 50_000, explanation: `Matching bonus for the cycle ending ${cycle1}: 6 pairs of 100 PV × ₦1,000 × 10%.` });
    expect(sRows.find((r) => r.entry === 'withheld')).toMatchObject({
      amount: 10_000,
      explanation: `Matching bonus for the cycle ending ${cycle1}: 6 pairs of 100 PV × ₦1,000 × 10%. Not paid: the part above your package's matching cap of ₦50,000 per cycle.`,
    });
    const iWallet = await h.call('GET', `/api/wallet/${I.id}/bonuses`, { token: admin });
    expect(iWallet.body.data.data).toEqual([]);
    expect((await h.call('GET', `/api/bonuses/${S.id}/bonus-stats`, { token: admin })).body.data.matching_bonus).toBe(50_000);

    // The same cycle again is a no-op, not an error.
    expect(await closeMatchingCycle(t.runtime.commands, cycle1, t.clock.now)).toEqual({ cycleEnd: cycle1, closed: false });
    expect((await t.runtime.db.selectFrom('events').select('stream_id').where('stream_id', '=', `matching-cycle-${cycle1}`).execute()).length).toBe(1);

    // New volume: a Gold (100) under AR2, on A's right leg.
    await h.activeMember({ referrer: AR2.username, package_id: 4 });
    await drain(pointsPolicy);

    // Re-running cycle 1 (a reset checkpoint, a rebuild) pays nothing twice: A could form a pair
    // now, but A's result for cycle 1 is recorded already; the volume waits for the next cycle.
    const before = await matchingEventCount();
    const outcomeEventsBefore = (await t.runtime.db.selectFrom('events').select('event_id').where('stream_id', 'like', 'matching-outcomes-%').execute()).length;
    const carryBefore = await t.runtime.db.selectFrom('matching_carry').selectAll().orderBy('member_id').execute();
    const closedEvents = await readLogBatch(t.runtime.db, LOG_START, { limit: 1000, types: ['MatchingCycleClosed'] });
    await t.runtime.db.transaction().execute(async (trx) => {
      for (const closed of closedEvents) await payMatchingCycle(trx, closed as RecordedEvent<MatchingCycleClosed>);
    });
    expect(await matchingEventCount()).toBe(before);
    expect((await t.runtime.db.selectFrom('events').select('event_id').where('stream_id', 'like', 'matching-outcomes-%').execute()).length).toBe(outcomeEventsBefore);
    expect(await t.runtime.db.selectFrom('matching_carry').selectAll().orderBy('member_id').execute()).toEqual(carryBefore);

    // The scheduled job closes the cycles missed since cycle 1, oldest first; a second run closes nothing.
    const job = scheduledJobs.find((j) => j.name === 'matching-cycles')!;
    expect(await job.run(t.runtime)).toEqual({ closed: [shiftDays(cycle1, 7), latest] });
    expect(await job.run(t.runtime)).toEqual({ closed: [] });
    await drain(pointsPolicy, walletLedgerProjection);
    // Cycle 2 (cycle1 + 7): A: carried L 100 + new 0 = 100, carried R 50 + new 100 = 150 → 1 pair = ₦10,000 (50 carries).
    // root: carried L 75 + new 100 = 175, R 1,535 → 1 pair = ₦10,000. S's 625 left carries but its right is empty;
    // I, Y and SL2 still do not qualify: their volume carries again, whole. AR: L 150, R 50 → none.
    expect(await matchingEntries(shiftDays(cycle1, 7))).toEqual(sorted([[A.id, 'credited', 1_000_000, null], [root.id, 'credited', 1_000_000, null]]));
    expect((await t.runtime.db.selectFrom('matching_results').select('member_id').where('cycle_end', '=', shiftDays(cycle1, 7)).where('outcome', '=', 'not_qualified').execute()).length).toBe(3);
    const aRow = await t.runtime.db.selectFrom('wallet_entries').select('inputs').where('member_id', '=', A.id).where('kind', '=', 'matching').orderBy('global_position', 'desc').executeTakeFirstOrThrow();
    expect(aRow.inputs).toMatchObject({ carried_left: 100, carried_right: 50, new_left: 0, new_right: 100, pairs: 1, total_pv: 100, unit_point_value_kobo: 100_000, percent: 10, cap_kobo: 10_000_000 });
    // The latest cycle had no new pair: nothing.
    expect(await matchingEntries(latest)).toEqual([]);
    expect(await t.runtime.db.selectFrom('matching_carry').select(['consumed_left', 'consumed_right', 'seen_left', 'seen_right']).where('member_id', '=', A.id).executeTakeFirstOrThrow()).toEqual({
      consumed_left: 200,
      consumed_right: 200,
      seen_left: 200,
      seen_right: 250,
    });

    // A's wallet: two matching bonuses, ₦20,000 in all.
    const aStats = await h.call('GET', `/api/bonuses/${A.id}/bonus-stats`, { token: A.token });
    expect(aStats.body.data.matching_bonus).toBe(20_000);
    const aWallet = await h.call('GET', `/api/wallet/${A.id}/bonuses`, { token: A.token });
    expect(aWallet.body.data.data.filter((r: { kind: string }) => r.kind === 'matching').map((r: { explanation: string }) => r.explanation)).toEqual([
      `Matching bonus for the cycle ending ${shiftDays(cycle1, 7)}: 1 pair of 100 PV × ₦1,000 × 10%.`,
      `Matching bonus for the cycle ending ${cycle1}: 1 pair of 100 PV × ₦1,000 × 10%.`,
    ]);
    expect((await verifyLog(t.runtime.db)).ok).toBe(true);

    // The log records each cycle's outcomes: cycle 1's 3 paid or capped and 3 not qualified
    // members, with what carries, and its totals, as the tables show them.
    const outcomes = await t.runtime.db.selectFrom('events').select(['type', 'data']).where('stream_id', '=', `matching-outcomes-${cycle1}`).orderBy('stream_position').execute();
    expect(outcomes.map((e) => e.type)).toEqual(['MatchingOutcomesRecorded', 'MatchingCycleSettled']);
    const columns = (outcomes[0]!.data as { columns: { member_id: string[]; outcome: string[]; carried_left: number[] } }).columns;
    expect(columns.member_id.length).toBe(6);
    expect(columns.carried_left[columns.member_id.indexOf(S.id)]).toBe(625);
    expect(outcomes[1]!.data).toEqual({ cycle_end: cycle1, members_matched: 3, members_capped: 1, members_not_qualified: 3, pairs: 10, credited_kobo: 9_000_000, withheld_kobo: 1_000_000, outcome_events: 1 });
    // The latest cycle paid nobody; the three who still do not qualify are recorded, their volume carrying again.
    const latestSettled = await t.runtime.db.selectFrom('events').select('data').where('stream_id', '=', `matching-outcomes-${latest}`).where('type', '=', 'MatchingCycleSettled').executeTakeFirstOrThrow();
    expect(latestSettled.data).toMatchObject({ members_matched: 0, members_not_qualified: 3, credited_kobo: 0, outcome_events: 1 });

    // So matching_cycles, matching_results and matching_carry rebuild from the log equal to the
    // live ones, after three cycles: paid, capped, not qualified, and carried volume paid in cycle 2.
    expect(await rebuiltMatchingDiffers()).toEqual([]);
    // A damaged table is repaired by the rebuild, under live traffic's locks like any inline read model.
    const live = await matchingTables();
    await sql`delete from matching_carry where member_id = ${A.id}`.execute(t.runtime.db);
    await sql`update matching_results set carried_left = carried_left + 1 where member_id = ${S.id} and cycle_end = ${cycle1}::date`.execute(t.runtime.db);
    await sql`update matching_cycles set members_not_qualified = 0 where cycle_end = ${cycle1}::date`.execute(t.runtime.db);
    expect((await rebuildReadModel(t.runtime.db, findReadModel('matching')!)).swapped).toEqual([
      { table: 'matching_cycles', removed: 1, added: 1 },
      { table: 'matching_results', removed: 1, added: 1 },
      { table: 'matching_carry', removed: 0, added: 1 },
    ]);
    expect(await matchingTables()).toEqual(live);
  }, 180_000);

  it('refuses to rebuild the matching tables when a cycle was paid before its outcomes were recorded in the log, changing nothing', async () => {
    // As a database from before MatchingOutcomesRecorded: a paid cycle whose outcomes only the tables hold.
    await sql`insert into matching_cycles (cycle_end, frequency_days, total_pv, percent, unit_point_value_kobo, closed_at, paid_at, members_matched)
              values ('2026-01-07', 7, 100, 10, 100000, now(), now(), 2)`.execute(t.runtime.db);
    try {
      const before = await matchingTables();
      await expect(rebuildReadModel(t.runtime.db, findReadModel('matching')!)).rejects.toThrow(
        'matching cannot be rebuilt from the log: the matching cycles 2026-01-07 were paid before their outcomes were recorded in the log',
      );
      expect(await matchingTables()).toEqual(before);
    } finally {
      await sql`delete from matching_cycles where cycle_end = '2026-01-07'`.execute(t.runtime.db);
    }
  });

  it('refuses a cycle that has not ended yet in Lagos, or a date that is not one', async () => {
    const today = companyDate(t.clock.now);
    await expect(closeMatchingCycle(t.runtime.commands, today, t.clock.now)).rejects.toThrow(`The matching cycle ending ${today} has not ended yet.`);
    await expect(closeMatchingCycle(t.runtime.db, '2026-02-30', t.clock.now)).rejects.toBeInstanceOf(RuleViolation);
  });
});
