import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { BonusCredited } from '../src/compensation/events';
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
    data: { kind, beneficiary_id: memberId, amount_kobo: amountKobo, cause: { event_id: randomUUID(), event_type: 'TestCredit', stream_id: 'test', member_id: null }, generation: 1, inputs: {} },
  };
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`stream:${walletStream(memberId)}`}, 0))`.execute(trx);
    await appendToStream(trx, walletStream(memberId), [bonus], { expectedVersion: 'any', metadata: { actor: { type: 'system', id: 'test' }, now: now.toISOString() } });
  });
}
