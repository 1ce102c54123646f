import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { type Transaction, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { cutIntoBatches, inRolledBackTransaction, syntheticLog, writtenToLog } from '../../test/synthetic-events';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import { projectHeldBonuses, projectHeldBonusesAt } from './projections';

/**
 * The held-bonuses read model a batch at a time inside PostgreSQL (projectHeldBonusesAt, as
 * rebuilds apply it) leaves exactly the rows projectHeldBonuses leaves one event at a time:
 * generated sequences of holds, settling and non-settling credits and withholdings over a few
 * bonus keys (one without a generation, one hold without a payment), cut into random batches, with
 * settlements before their hold, holds repeated, and several settlements of a key in one batch.
 * The events are written to the log (in a transaction rolled back) so the batch reads them by position.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

type Trx = Transaction<Database>;

const recorded = syntheticLog();

type Key = { cause: string; beneficiary: string; kind: string; generation: number | null };
type Step = { type: 'BonusHeld' | 'BonusCredited' | 'BonusWithheld'; key: number; settles: boolean; n: number };
const KEYS = 4;
const step: fc.Arbitrary<Step> = fc.record({
  type: fc.constantFrom('BonusHeld' as const, 'BonusHeld' as const, 'BonusCredited' as const, 'BonusWithheld' as const),
  key: fc.integer({ min: 0, max: KEYS - 1 }),
  settles: fc.boolean(),
  n: fc.integer({ min: 0, max: 1000 }),
});

function event(keys: Key[], s: Step): RecordedEvent {
  const k = keys[s.key]!;
  const base = {
    kind: k.kind, beneficiary_id: k.beneficiary, amount_kobo: 100 * (s.n + 1),
    cause: { event_id: k.cause, event_type: 'MemberActivated', stream_id: `member-${k.cause}`, member_id: k.beneficiary },
    ...(k.generation === null ? {} : { generation: k.generation }), inputs: { n: s.n },
  };
  if (s.type === 'BonusHeld') return recorded(s.type, { ...base, ...(s.n % 3 ? { payment_id: randomUUID() } : {}), reason: `held ${s.n}` }, s.n);
  const settles = s.settles ? { settles_hold: { decided_by_event_id: randomUUID() } } : s.n % 2 ? { settles_hold: null } : {};
  return recorded(s.type, { ...base, ...settles, ...(s.type === 'BonusWithheld' ? { reason: `withheld ${s.n}` } : {}) }, s.n);
}

async function rowsAfter(log: readonly RecordedEvent[], apply: (trx: Trx, log: RecordedEvent[]) => Promise<void>): Promise<unknown[]> {
  let result: unknown[] = [];
  await inRolledBackTransaction(t.db, async (trx) => {
    await apply(trx, await writtenToLog(trx, log));
    const rows = await sql<{ row: unknown }>`select to_jsonb(h) as row from held_bonuses h order by bonus_key`.execute(trx);
    result = rows.rows.map((r) => r.row);
  });
  return result;
}

describe('held bonuses, a batch at a time inside PostgreSQL', () => {
  it('leaves the same rows as projectHeldBonuses applied event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), async (steps, cuts) => {
        const member = randomUUID();
        const keys: Key[] = Array.from({ length: KEYS }, (_, i) => ({ cause: randomUUID(), beneficiary: i === 3 ? randomUUID() : member, kind: i % 2 ? 'unilevel' : 'referral', generation: i === 0 ? null : i }));
        const log = steps.map((s) => event(keys, s));
        const cut = (events: RecordedEvent[]) => cutIntoBatches(events, cuts);
        const expected = await rowsAfter(log, async (trx, events) => {
          for (const e of events) await projectHeldBonuses(trx, [e]);
        });
        const actual = await rowsAfter(log, async (trx, events) => {
          for (const batch of cut(events)) await projectHeldBonusesAt(trx, batch.map((e) => e.globalPosition));
        });
        expect(actual).toEqual(expected);
        // Not vacuous: some generated logs settle a hold.
        return true;
      }),
      { numRuns: 200 },
    );
  });
});
