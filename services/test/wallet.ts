import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { BonusCredited, BonusWithheld } from '../src/compensation/events';
import { walletStream } from '../src/compensation/events';
import type { Db } from '../src/core/db';
import { appendToStream } from '../src/core/event-store';

/**
 * Gives a member wallet money without building a network: a bonus appended straight onto the
 * wallet stream, under the stream's lock as the compensation policy appends them.
 */
export async function creditWallet(db: Db, memberId: string, amountKobo: number, now = new Date(), kind: BonusCredited['data']['kind'] = 'referral'): Promise<void> {
  const bonus: BonusCredited = {
    type: 'BonusCredited',
    data: { kind, beneficiary_id: memberId, amount_kobo: amountKobo, cause: testCause(), generation: 1, inputs: {} },
  };
  await appendToWallet(db, memberId, bonus, now);
}

/** A matching bonus the member did not earn (inactive at its cause), appended as the compensation policy would. */
export async function withhold(db: Db, memberId: string, amountKobo: number, now = new Date()): Promise<void> {
  const withheld: BonusWithheld = {
    type: 'BonusWithheld',
    data: { kind: 'matching', beneficiary_id: memberId, amount_kobo: amountKobo, reason: 'inactive_beneficiary', cause: testCause(), generation: 1, inputs: {} },
  };
  await appendToWallet(db, memberId, withheld, now);
}

const testCause = () => ({ event_id: randomUUID(), event_type: 'TestCredit', stream_id: 'test', member_id: null });

async function appendToWallet(db: Db, memberId: string, bonus: BonusCredited | BonusWithheld, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`stream:${walletStream(memberId)}`}, 0))`.execute(trx);
    await appendToStream(trx, walletStream(memberId), [bonus], { expectedVersion: 'any', metadata: { actor: { type: 'system', id: 'test' }, now: now.toISOString() } });
  });
}
