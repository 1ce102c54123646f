import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { recountedTotals } from '../../test/daily-totals';
import { bothSidesFromLog, cutIntoBatches, inRolledBackTransaction, syntheticLog, tableRows } from '../../test/synthetic-events';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import { withDailyTotals, withDailyTotalsAt } from '../core/daily-totals';
import { projectWithdrawalRequests, projectWithdrawalsAt, projectWithdrawalsInBatches, withdrawalTotals } from './projections';

/**
 * The withdrawals read model a batch at a time (as rebuilds apply it) leaves exactly the rows the
 * commands' projection leaves one event at a time: generated sequences of every withdrawal event
 * over a few withdrawals, cut into random batches, with changes before a request, requests
 * repeated (with other amounts), several changes of a withdrawal in one batch, sends with and
 * without a recipient code, times out of order (the last event wins, not the latest time), and
 * wallet events that do not touch the table. Every path keeps the daily totals of the successful
 * withdrawals equal to its rows summed afresh.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

type Trx = Transaction<Database>;

const recorded = syntheticLog();

const WITHDRAWALS = 4;
type Step = { type: string; withdrawal: number; n: number; minute: number };
const step: fc.Arbitrary<Step> = fc.record({
  type: fc.constantFrom('WithdrawalRequested', 'WithdrawalRequested', 'WithdrawalSent', 'WithdrawalSucceeded', 'WithdrawalFailed', 'BonusCredited'),
  withdrawal: fc.integer({ min: 0, max: WITHDRAWALS - 1 }),
  n: fc.integer({ min: 0, max: 1000 }),
  minute: fc.integer({ min: 0, max: 20_000 }),
});

function event(ids: string[], member: string, s: Step): RecordedEvent {
  const withdrawal_id = ids[s.withdrawal]!;
  const transfer_reference = `wd-${withdrawal_id}`;
  switch (s.type) {
    case 'WithdrawalRequested': {
      const e = recorded(s.type, {
        withdrawal_id, member_id: member, kind: s.n % 2 ? 'withdrawal' : 'payout', amount_kobo: 1000 + s.n, fee_kobo: s.n % 100, net_kobo: 1000 + s.n - (s.n % 100),
        bank: { bank_name: `Bank ${s.n}`, bank_code: '001', account_number: `${1000000000 + s.n}`, account_name: `Name ${s.n}` },
        reason: `reason ${s.n}`, automatic: s.n % 4 === 0, fee_inputs: { charge_type: 'flat', charge_percent: 0, charge_flat_kobo: s.n % 100, charge_cap_kobo: 0 },
        balance_before_kobo: 100_000,
      }, s.minute);
      // requested_by: the acting member or admin, none for the system.
      const actors = [{ type: 'member', id: member }, { type: 'admin', id: randomUUID() }, { type: 'system', id: 'auto' }];
      return { ...e, metadata: { ...e.metadata, actor: actors[s.n % 3] } } as RecordedEvent;
    }
    case 'WithdrawalSent':
      return recorded(s.type, { withdrawal_id, member_id: member, transfer_reference, transfer_code: `TRF_${s.n}`, recipient_code: s.n % 3 ? `RCP_${s.n}` : null, via: 'transfer_response' }, s.minute);
    case 'WithdrawalSucceeded':
      return recorded(s.type, { withdrawal_id, member_id: member, transfer_reference, via: 'webhook' }, s.minute);
    case 'WithdrawalFailed':
      return recorded(s.type, { withdrawal_id, member_id: member, outcome: 'failed', reason: `failed ${s.n}`, returned_kobo: 1000, via: 'webhook' }, s.minute);
    default:
      return recorded('BonusCredited', { kind: 'referral', beneficiary_id: member, amount_kobo: s.n, cause: {}, generation: 1, inputs: {} }, s.minute);
  }
}

/** The withdrawals, and the daily totals of the successful ones, which must be those rows summed afresh whatever path wrote them. */
async function withdrawalRows(trx: Trx): Promise<{ withdrawals: unknown[]; days: unknown[] }> {
  const days = await tableRows(trx, 'select to_jsonb(d) as row from daily_withdrawal_totals d order by day, key');
  const summed = await tableRows(trx, `
    select jsonb_build_object('day', day, 'key', 'successful', 'n', n, 'amount', amount) as row from (
      select (coalesce(completed_at, updated_at) at time zone 'Africa/Lagos')::date as day, count(*) as n, sum(amount) as amount
      from withdrawals where status = 'successful' group by 1) s order by day`);
  expect(days, 'the daily withdrawal totals are the successful withdrawals summed by day').toEqual(summed);
  expect(await recountedTotals(trx, withdrawalTotals), 'recounted from every row (recountDailyTotals)').toEqual(days);
  return { withdrawals: await tableRows(trx, 'select to_jsonb(w) as row from withdrawals w order by id'), days };
}

async function rowsAfter(apply: (trx: Trx) => Promise<void>): Promise<{ withdrawals: unknown[]; days: unknown[] }> {
  let result = { withdrawals: [] as unknown[], days: [] as unknown[] };
  await inRolledBackTransaction(t.db, async (trx) => {
    await apply(trx);
    result = await withdrawalRows(trx);
  });
  return result;
}

describe('withdrawals, a batch at a time', () => {
  it('leaves the same rows as the commands’ projection applied event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), async (steps, cuts) => {
        const ids = Array.from({ length: WITHDRAWALS }, () => randomUUID());
        const member = randomUUID();
        const log = steps.map((s) => event(ids, member, s));
        const batches = cutIntoBatches(log, cuts);
        const expected = await rowsAfter(async (trx) => {
          for (const e of log) await projectWithdrawalRequests(trx, [e]);
        });
        const actual = await rowsAfter(async (trx) => {
          for (const batch of batches) await withDailyTotals(withdrawalTotals, projectWithdrawalsInBatches)(trx, batch);
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('in SQL (rebuilds’ applyAt, the batch by log position) leaves the same rows as the projection applied event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 30, size: 'max' }), fc.array(fc.nat(), { maxLength: 5 }), async (steps, cuts) => {
        const ids = Array.from({ length: WITHDRAWALS }, () => randomUUID());
        const member = randomUUID();
        const log = steps.map((s) => event(ids, member, s));
        const { expected, actual } = await bothSidesFromLog(t.db, log, cuts, {
          eventByEvent: async (trx, logged) => {
            for (const e of logged) await projectWithdrawalRequests(trx, [e]);
          },
          atPositions: withDailyTotalsAt(withdrawalTotals, projectWithdrawalsAt),
          rows: withdrawalRows,
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
