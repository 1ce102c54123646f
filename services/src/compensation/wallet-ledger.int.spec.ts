import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { drainAll } from '../../test/consumers';
import { type DomainEvent, appendToStreams } from '../core/event-store';
import { walletStream } from './events';
import { projectWalletLedgerAt, walletLedgerProjection } from './projections';

/**
 * The wallet ledger projected set-based inside PostgreSQL (projectWalletLedgerAt, run by the
 * consumer runner through applyAt with the batch's positions): every event type it reads, in one
 * batch, and a bonus event delivered twice.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const wallet = async (memberId: string) =>
  t.runtime.db.selectFrom('wallets').selectAll().where('member_id', '=', memberId).executeTakeFirstOrThrow();
const lines = async (memberId: string) =>
  t.runtime.db.selectFrom('wallet_entries').selectAll().where('member_id', '=', memberId).orderBy('global_position').execute();

describe('the wallet ledger, set-based', () => {
  it('projects holds, credits, withholdings, a settled hold, withdrawals, a failed withdrawal and a wallet payment in one batch', async () => {
    const db = t.runtime.db;
    const member = (await db.selectFrom('members').select('id').where('is_root', '=', true).executeTakeFirstOrThrow()).id;
    const cause = { event_id: randomUUID(), event_type: 'MemberActivated', stream_id: 'member-x', member_id: member };
    const paymentId = randomUUID();
    const withdrawalId = randomUUID();
    const events: DomainEvent[] = [
      { type: 'BonusHeld', data: { kind: 'referral', beneficiary_id: member, amount_kobo: 300_00, cause, generation: 1, inputs: { percent: 10 }, payment_id: paymentId } },
      { type: 'BonusCredited', data: { kind: 'placement', beneficiary_id: member, amount_kobo: 100_00, cause, generation: null, inputs: {} } },
      { type: 'BonusWithheld', data: { kind: 'welcome', beneficiary_id: member, amount_kobo: 50_00, reason: 'inactive_beneficiary', cause, generation: null, inputs: {} } },
      {
        type: 'WithdrawalRequested',
        data: {
          withdrawal_id: withdrawalId, member_id: member, kind: 'withdrawal', amount_kobo: 40_00, fee_kobo: 1_00, net_kobo: 39_00,
          bank: { bank_name: 'B', bank_code: '001', account_number: '0123456789', account_name: 'A' }, reason: 'x', automatic: false, fee_inputs: null, balance_before_kobo: 100_00,
        },
      },
      { type: 'WithdrawalFailed', data: { withdrawal_id: withdrawalId, member_id: member, outcome: 'failed', reason: 'bank', returned_kobo: 40_00, via: 'webhook' } },
      { type: 'WalletPaymentMade', data: { payment_id: randomUUID(), member_id: member, purpose: 'upgrade', amount_kobo: 10_00, balance_before_kobo: 100_00, cause: { description: 'x', package_id: null } } },
      {
        type: 'BonusCredited',
        data: { kind: 'referral', beneficiary_id: member, amount_kobo: 300_00, cause, generation: 1, inputs: { percent: 10 }, settles_hold: { payment_id: paymentId, decided_by_event_id: randomUUID() } },
      },
    ];
    const at = ['2026-11-20T10:00:00.000Z', '2026-11-21T10:00:00.000Z'];
    for (const [i, slice] of [events.slice(0, 4), events.slice(4)].entries()) {
      await db.transaction().execute((trx) =>
        appendToStreams(trx, [{ streamId: walletStream(member), events: slice }], { metadata: { actor: { type: 'system', id: 'test' }, now: at[i]! } }),
      );
    }
    expect((await drainAll(db, walletLedgerProjection)).status).toBe('caught_up');

    const w = await wallet(member);
    expect(w).toMatchObject({ total_bonus: 400_00, total_withheld: 50_00, total_held: 0, total_withdrawn: 0, total_spent: 10_00, balance: 390_00 });
    expect(new Date(w.updated_at).toISOString()).toBe(at[1]);
    const rows = await lines(member);
    expect(rows.map((r) => [r.entry, r.kind, r.amount, r.generation, r.reason, r.settles_hold, r.resolution])).toEqual([
      ['held', 'referral', 300_00, 1, null, false, 'credited'],
      ['credited', 'placement', 100_00, null, null, false, null],
      ['withheld', 'welcome', 50_00, null, 'inactive_beneficiary', false, null],
      ['credited', 'referral', 300_00, 1, null, true, null],
    ]);
    expect(rows[0]).toMatchObject({ cause_event_id: cause.event_id, cause_type: 'MemberActivated', cause_member_id: member, inputs: { percent: 10 } });
    expect(new Date(rows[0]!.recorded_at).toISOString()).toBe(at[0]);

    // The same bonus events delivered again (and an event of another type among them): nothing changes.
    const { rows: positions } = await sql<{ p: number }>`
      select global_position as p from events where stream_id = ${walletStream(member)} and type like 'Bonus%'
      union all select min(global_position) from events where type = 'MemberRegistered'`.execute(db);
    await db.transaction().execute((trx) => projectWalletLedgerAt(trx, positions.map((r) => Number(r.p))));
    expect(await wallet(member)).toEqual(w);
    expect(await lines(member)).toEqual(rows);
  });
});
