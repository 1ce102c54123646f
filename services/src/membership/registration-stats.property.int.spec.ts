import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { type Transaction, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { cutIntoBatches, inRolledBackTransaction, syntheticLog, writtenToLog } from '../../test/synthetic-events';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import { countRegistrationsAt, registrationStatsProjection } from './registration-stats';

/**
 * registration-stats inside PostgreSQL (applyAt, what the runner and rebuilds call) leaves the
 * same daily counts as its apply over the events in the process, event by event: generated
 * registrations and activations over a few packages and times (days around UTC midnight), cut
 * into random batches, applied over rows already there. The events are written to the log in a
 * rolled-back transaction, so the batch reads them by position.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

type Trx = Transaction<Database>;

const recorded = syntheticLog(Date.parse('2026-03-01T22:00:00Z'));
type Step = { registered: boolean; packageId: number; minute: number };
const step: fc.Arbitrary<Step> = fc.record({ registered: fc.boolean(), packageId: fc.integer({ min: 1, max: 3 }), minute: fc.integer({ min: 0, max: 6 * 60 }) });

async function rowsAfter(log: readonly RecordedEvent[], apply: (trx: Trx, log: RecordedEvent[]) => Promise<void>): Promise<unknown[]> {
  let result: unknown[] = [];
  await inRolledBackTransaction(t.db, async (trx) => {
    await sql`insert into daily_registrations (day, package_id, registrations, activations) values ('2026-03-02', 1, 5, 2) on conflict do nothing`.execute(trx);
    await apply(trx, await writtenToLog(trx, log));
    const rows = await sql<{ row: unknown }>`select to_jsonb(d) as row from daily_registrations d order by day, package_id`.execute(trx);
    result = rows.rows.map((r) => r.row);
  });
  return result;
}

describe('registration stats inside PostgreSQL', () => {
  it('leaves the same daily counts as the apply over events in the process, event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), async (steps, cuts) => {
        const log = steps.map((s) =>
          recorded(s.registered ? 'MemberRegistered' : 'MemberActivated', { member_id: randomUUID(), package_id: s.packageId }, s.minute),
        );
        const cut = (events: RecordedEvent[]) => cutIntoBatches(events, cuts);
        const expected = await rowsAfter(log, async (trx, events) => {
          for (const e of events) await registrationStatsProjection.apply(trx, [e]);
        });
        const actual = await rowsAfter(log, async (trx, events) => {
          for (const batch of cut(events)) await countRegistrationsAt(trx, batch.map((e) => e.globalPosition));
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });
});
