import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { eventually } from '../../test/eventually';
import { httpHelpers } from '../../test/http';
import { walletLedgerProjection } from '../compensation/projections';
import { type Consumer, drainConsumer } from '../core/consumers';
import { appendToStream, declareAppendsSql } from '../core/event-store';
import { memberStream } from '../membership/events';

/**
 * Decision 73: an admin's approval declares what it may append (settlingPaymentAppends), so while it
 * runs, the readers of wallet events (the wallet ledger) read past it, and the readers of
 * activations (the points and bonus policies) wait for it. The payment tests prove the list is
 * complete: an approval that appended a type left out would fail.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp({ consumers: [] });
  h = httpHelpers(t);
});
afterAll(async () => t?.close());

/** A reader of `types` under its own checkpoint, recording the types it applied from `streams`. */
function recorder(name: string, types: readonly string[], streams: readonly string[], applied: string[]): Consumer {
  return {
    name,
    kind: 'projection',
    eventTypes: [...types],
    apply: async (_trx, events) => void applied.push(...events.filter((e) => streams.includes(e.streamId)).map((e) => e.type)),
  };
}

describe('an approval in flight', () => {
  it("holds back the readers of activations but not the wallet ledger's", async () => {
    const db = t.runtime.db;
    const member = await h.registeredMember();
    const paymentId = await h.uploadReceipt(member);
    const walletReads: string[] = [];
    const activationReads: string[] = [];
    const walletReader = recorder('reads-wallet-events', walletLedgerProjection.eventTypes ?? [], ['wallet-reader-probe'], walletReads);
    const activationReader = recorder('reads-activations', ['MemberActivated'], [memberStream(member.id)], activationReads);
    await drainConsumer(db, walletReader);
    await drainConsumer(db, activationReader);

    // The approval appends the payment's and the member's events, then stops at the members row
    // this transaction holds: it is open, with its events written.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const holdsRow = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction().execute(async (trx) => {
      // A row lock takes an xid: declared to append nothing, this transaction holds no reader back.
      await sql`select ${declareAppendsSql(trx, [])}`.execute(trx);
      await sql`select id from members where id = ${member.id} for update`.execute(trx);
      locked();
      await released;
    });
    await holdsRow;
    const approval = h.call('PATCH', `/api/payments/package-payments/${paymentId}/approve`, { token: await h.adminToken() });
    try {
      await eventually(
        async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db)).rows[0]!.n,
        (waiting) => waiting === 1,
        'the approval to wait for the members row',
      );
      await appendToStream(db, 'wallet-reader-probe', [{ type: 'WithdrawalRequested', data: {} }], { expectedVersion: 0, metadata: { actor: { type: 'system', id: 'test' }, now: new Date().toISOString() } });
      await eventually(() => drainConsumer(db, walletReader), () => walletReads.length === 1, 'the wallet reader to read past the approval');
      await drainConsumer(db, activationReader);
      expect(activationReads).toEqual([]);
    } finally {
      release();
      await holder;
    }
    expect((await approval).status).toBe(200);
    await drainConsumer(db, activationReader);
    expect(activationReads).toEqual(['MemberActivated']);
    expect(walletReads).toEqual(['WithdrawalRequested']);
  });
});
