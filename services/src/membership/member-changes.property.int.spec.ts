import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { recountedTotals } from '../../test/daily-totals';
import { bothSidesFromLog, cutIntoBatches, inRolledBackTransaction, syntheticLog, tableRows } from '../../test/synthetic-events';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import { rankColumns, rankCompact } from '../points/events';
import { memberDetailsChanges, projectMemberDetails } from '../profile/projections';
import { projectStockistFlag, stockistFlagChanges } from '../stockists/projections';
import { projectWithdrawalAmount, withdrawalAmountChanges } from '../wallet/projections';
import { projectMembersInBatches } from './member-changes';
import { projectMembersAt } from './members-at';
import { withDailyTotals, withDailyTotalsAt } from '../core/daily-totals';
import { memberTotals } from './member-totals';
import { memberChanges, memberRegisteredRow, projectMembers } from './projections';

/**
 * The members read model a batch at a time (projectMembersInBatches, as rebuilds apply it) leaves
 * exactly the rows the commands' functions leave applying the same events one at a time, each
 * function in turn per event: over generated sequences of every event the model reads, cut into
 * random batches, with changes before a member's registration (in the same batch and in earlier
 * ones), registrations repeated, several events of a member in one batch, PV added, and times out
 * of order (the last event wins, not the latest time). The same in SQL (projectMembersAt, the
 * rebuilds' statement written for the members table), the events written to the log and read by
 * position, with events of other types interleaved (some naming a member and fields the model reads).
 * Every path keeps the daily member totals (member-totals.ts) equal to its rows counted afresh.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

type Trx = Transaction<Database>;

const START = Date.parse('2026-03-01T00:00:00Z');
const recorded = syntheticLog(START);

const MEMBERS = 5;
const who = fc.integer({ min: 0, max: MEMBERS - 1 });
const minute = fc.integer({ min: 0, max: 20_000 });
type Step = { type: string; member: number; others: number[]; n: number; flag: boolean; minute: number };
const step: fc.Arbitrary<Step> = fc.record({
  type: fc.constantFrom(
    'MemberRegistered', 'MemberRegistered', 'MemberEmailConfirmed', 'MemberActivated', 'MemberPackageUpgraded', 'MemberRegistrationExpired', 'MemberReinstated',
    'MemberTwoFactorChanged', 'MemberPasswordChanged', 'MemberPlacementPreferenceChanged', 'MemberDetailsUpdated', 'WithdrawalAmountSet', 'StockistApproved', 'RankAchieved', 'RanksAchieved',
    'MemberProfileUpdated', 'WithdrawalRequested',
  ),
  member: who,
  others: fc.uniqueArray(who, { minLength: 1, maxLength: 3 }),
  n: fc.integer({ min: 0, max: 1000 }),
  flag: fc.boolean(),
  minute,
});

function event(ids: string[], s: Step): RecordedEvent {
  const member_id = ids[s.member]!;
  const other = ids[(s.member + 1) % MEMBERS]!;
  const leg = s.flag ? 'left' : 'right';
  switch (s.type) {
    case 'MemberRegistered':
      return recorded('MemberRegistered', {
        member_id, username: `u${s.n}-${member_id.slice(0, 8)}`, email: `${s.n}-${member_id}@test`, first_name: `F${s.n}`, last_name: 'L', phone: `0${s.n}`, package_id: 1 + (s.n % 3),
        sponsor_id: s.flag ? other : null, placement_parent_id: s.flag ? other : null, placement_leg: s.flag ? leg : null, is_root: !s.flag,
      }, s.minute);
    case 'MemberEmailConfirmed':
      return recorded(s.type, { member_id }, s.minute);
    case 'MemberActivated':
      return recorded(s.type, { member_id, package_id: 1 + (s.n % 3), payment_id: s.flag ? randomUUID() : null, ...(s.n % 5 === 0 ? {} : { point_value: s.n }) }, s.minute);
    case 'MemberPackageUpgraded':
      return recorded(s.type, { member_id, payment_id: randomUUID(), from_package_id: 1, to_package_id: 2 + (s.n % 3), difference_kobo: 0, point_value_added: s.n, pickup_allowance_kobo: 0 }, s.minute);
    case 'MemberRegistrationExpired':
      return recorded(s.type, { member_id, freed_placement_parent_id: other, freed_placement_leg: leg }, s.minute);
    case 'MemberReinstated':
      return recorded(s.type, { member_id, expires_at: new Date(START + s.n * 3_600_000).toISOString(), placement_parent_id: other, placement_leg: leg }, s.minute);
    case 'MemberTwoFactorChanged':
      return recorded(s.type, { member_id, enabled: s.flag }, s.minute);
    case 'MemberPasswordChanged':
      return recorded(s.type, { member_id }, s.minute);
    // Not the model's: they name a member, and fields it reads under other types.
    case 'MemberProfileUpdated':
      return recorded(s.type, { member_id, address: `A${s.n}`, gender: 'female', photo_path: null, first_name: `P${s.n}`, enabled: s.flag, package_id: 9 }, s.minute);
    case 'WithdrawalRequested':
      return recorded(s.type, { withdrawal_id: randomUUID(), member_id, kind: 'withdrawal', amount_kobo: s.n, fee_kobo: 0, net_kobo: s.n, point_value: s.n }, s.minute);
    case 'MemberPlacementPreferenceChanged':
      return recorded(s.type, { member_id, preference: s.flag ? 'extreme_left' : null }, s.minute);
    case 'MemberDetailsUpdated':
      return recorded(s.type, { member_id, first_name: `G${s.n}`, last_name: `M${s.n}`, phone: `08${s.n}` }, s.minute);
    case 'WithdrawalAmountSet':
      return recorded(s.type, { member_id, amount_kobo: s.n * 100 }, s.minute);
    case 'StockistApproved':
      return recorded(s.type, { member_id, stockist_id: randomUUID() }, s.minute);
    case 'RankAchieved':
      return recorded(s.type, { member_id, rank_id: 1 + (s.n % 4), cause: { event_id: randomUUID(), event_type: 'Test', stream_id: 'test', member_id: null } }, s.minute);
    default: {
      // The three shapes of RanksAchieved: compact (since decision 80), in columns (decisions 67–79) and an array of objects (before).
      const cause = { event_id: randomUUID(), event_type: 'Test', stream_id: 'test', member_id: null };
      const entries = s.others.map((m) => ({ member_id: ids[m]!, rank_id: 1 + ((s.n + m) % 4), rank_name: 'R', previous_rank_id: null, cpv: 0, package_id: 1 }));
      const shape = s.n % 3;
      return recorded('RanksAchieved', shape === 0 ? { cause, columns: rankColumns(entries) } : shape === 1 ? { cause, ranks: entries } : { cause, ...rankCompact(entries) }, s.minute);
    }
  }
}

/** The members rows, and the daily member totals, which must be those rows counted afresh whatever path wrote them. */
async function memberRows(trx: Trx): Promise<{ members: unknown[]; days: unknown[] }> {
  const days = await tableRows(trx, 'select to_jsonb(d) as row from daily_member_totals d order by day, key');
  const counted = await tableRows(trx, `
    select jsonb_build_object('day', day, 'key', key, 'n', n, 'amount', amount) as row from (
      select (case k.key when 'active' then m.activated_at else m.created_at end at time zone 'Africa/Lagos')::date as day, k.key, count(*) as n,
        sum(case k.key when 'pv' then m.personal_pv else 0 end) as amount
      from members m cross join (values ('registered'), ('active'), ('pv')) as k(key)
      where case k.key when 'registered' then not m.is_root when 'active' then m.activated_at is not null and not m.deactivated else true end
      group by 1, 2) c order by day, key`);
  expect(days, 'the daily member totals are the members counted by day').toEqual(counted);
  expect(await recountedTotals(trx, memberTotals), 'recounted from every row (recountDailyTotals)').toEqual(days);
  return { members: await tableRows(trx, 'select to_jsonb(m) as row from members m order by id'), days };
}

/** Runs `apply` in a transaction that is rolled back, returning the members rows (and totals) as they stood at the end. */
async function rowsAfter(apply: (trx: Trx) => Promise<void>): Promise<{ members: unknown[]; days: unknown[] }> {
  let rows = { members: [] as unknown[], days: [] as unknown[] };
  await inRolledBackTransaction(t.db, async (trx) => {
    await apply(trx);
    rows = await memberRows(trx);
  });
  return rows;
}

// Rank events stay in the log the property draws: the members rows ignore them (the rank lives in member_points, decision 86).
const oneByOne = [projectMembers, projectMemberDetails, projectWithdrawalAmount, projectStockistFlag];
const batched = withDailyTotals(memberTotals, projectMembersInBatches(memberRegisteredRow, [memberChanges, memberDetailsChanges, withdrawalAmountChanges, stockistFlagChanges]));

describe('the members read model, a batch at a time', () => {
  it('leaves the same members rows as the commands’ functions applied event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), async (steps, cuts) => {
        const ids = Array.from({ length: MEMBERS }, () => randomUUID());
        const log = steps.map((s) => event(ids, s));
        const batches = cutIntoBatches(log, cuts);
        const expected = await rowsAfter(async (trx) => {
          for (const e of log) for (const apply of oneByOne) await apply(trx, [e]);
        });
        const actual = await rowsAfter(async (trx) => {
          for (const batch of batches) await batched(trx, batch);
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  // 51 s of the default 60 s at a load of ~20 on 2 CPUs (as the whole suite in CI): 3.5× that (decision 81).
  it('in SQL (rebuilds’ applyAt, the batch by log position) leaves the same members rows as the functions applied event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 60, size: 'max' }), fc.array(fc.nat(), { maxLength: 6 }), async (steps, cuts) => {
        const ids = Array.from({ length: MEMBERS }, () => randomUUID());
        const { expected, actual } = await bothSidesFromLog(t.db, steps.map((s) => event(ids, s)), cuts, {
          eventByEvent: async (trx, logged) => {
            for (const e of logged) for (const apply of oneByOne) await apply(trx, [e]);
          },
          atPositions: withDailyTotalsAt(memberTotals, projectMembersAt),
          rows: memberRows,
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  }, 180_000);
});
