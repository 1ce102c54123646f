import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import type { BonusCredited } from '../compensation/events';
import { walletLedgerProjection } from '../compensation/projections';
import { foldEvents } from '../core/command';
import { drainAll } from '../../test/consumers';
import { appendToStream, readStream } from '../core/event-store';
import { balanceOf, walletDecider } from '../wallet/decider';
import { type WalletEvent, walletStream } from '../wallet/events';

/**
 * The member statement's promise (docs/audit.md), over random wallets: credits, withdrawals, failed
 * transfers returned and wallet payments on random days (never overdrawn in stream order), and
 * random periods (events at any minute, either side of Lagos midnight). For every period: opening + credits − debits = closing, each line's balance
 * follows from the one before; consecutive periods chain (one's closing is the next's opening);
 * and the statement of everything closes on the wallet's balance, folded from the stream and
 * projected into `wallets`.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let finance: string;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  finance = await h.adminToken('finance');
});
afterAll(async () => t?.close());

type Move =
  | { kind: 'credit'; kobo: number; day: number; minute: number }
  | { kind: 'withdraw'; kobo: number; day: number; minute: number; fails: boolean }
  | { kind: 'pay'; kobo: number; day: number; minute: number };

const move: fc.Arbitrary<Move> = fc.oneof(
  fc.record({ kind: fc.constant('credit' as const), kobo: fc.integer({ min: 1, max: 50_000_000 }), day: fc.integer({ min: 0, max: 89 }), minute: fc.integer({ min: 0, max: 1439 }) }),
  fc.record({ kind: fc.constant('withdraw' as const), kobo: fc.integer({ min: 1, max: 50_000_000 }), day: fc.integer({ min: 0, max: 89 }), minute: fc.integer({ min: 0, max: 1439 }), fails: fc.boolean() }),
  fc.record({ kind: fc.constant('pay' as const), kobo: fc.integer({ min: 1, max: 50_000_000 }), day: fc.integer({ min: 0, max: 89 }), minute: fc.integer({ min: 0, max: 1439 }) }),
);

// Any minute of the UTC day, so events fall on both sides of Lagos midnight (23:00 UTC).
const START = Date.parse('2026-03-01T00:00:00Z');
const dayOf = (day: number) => new Date(START + day * 86_400_000).toISOString().slice(0, 10);

/** Appends the moves in order onto the member's wallet stream; debits are cut to the balance, so none overdraws. */
async function record(memberId: string, moves: Move[]): Promise<void> {
  let balance = 0;
  for (const m of moves) {
    const now = new Date(START + m.day * 86_400_000 + m.minute * 60_000).toISOString();
    const events: Array<BonusCredited | WalletEvent> = [];
    if (m.kind === 'credit') {
      balance += m.kobo;
      events.push({ type: 'BonusCredited', data: { kind: 'referral', beneficiary_id: memberId, amount_kobo: m.kobo, cause: { event_id: randomUUID(), event_type: 'TestCredit', stream_id: 'test', member_id: null }, generation: 1, inputs: { base_kobo: m.kobo * 10, percentage: 10 } } });
    } else {
      const kobo = Math.min(m.kobo, balance);
      if (kobo === 0) continue;
      balance -= kobo;
      if (m.kind === 'pay') {
        events.push({ type: 'WalletPaymentMade', data: { payment_id: randomUUID(), member_id: memberId, purpose: 'upgrade', amount_kobo: kobo, balance_before_kobo: balance + kobo, cause: { description: 'Package upgrade', package_id: 3 } } });
      } else {
        const withdrawalId = randomUUID();
        const bank = { bank_name: 'Test Bank', bank_code: '001', account_number: '0123456789', account_name: 'Test Account' };
        events.push({ type: 'WithdrawalRequested', data: { withdrawal_id: withdrawalId, member_id: memberId, kind: 'withdrawal', amount_kobo: kobo, fee_kobo: 0, net_kobo: kobo, bank, reason: '', automatic: false, fee_inputs: null, balance_before_kobo: balance + kobo } });
        if (m.fails) {
          balance += kobo;
          events.push({ type: 'WithdrawalFailed', data: { withdrawal_id: withdrawalId, member_id: memberId, outcome: 'failed', reason: 'The transfer failed.', returned_kobo: kobo, via: 'webhook' } });
        }
      }
    }
    await t.runtime.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`stream:${walletStream(memberId)}`}, 0))`.execute(trx);
      await appendToStream(trx, walletStream(memberId), events, { expectedVersion: 'any', metadata: { actor: { type: 'system', id: 'test' }, now } });
    });
  }
}

type Statement = { opening_balance_kobo: number; total_credits_kobo: number; total_debits_kobo: number; closing_balance_kobo: number; lines: Array<{ credit_kobo: number; debit_kobo: number; balance_kobo: number }> };

async function statement(memberId: string, from: string, to: string): Promise<Statement> {
  const response = await h.call('GET', `/api/wallet/${memberId}/statement?from=${from}&to=${to}`, { token: finance });
  expect(response.status, response.body.message).toBe(200);
  return response.body.data;
}

function expectBalanced(s: Statement) {
  let running = s.opening_balance_kobo;
  for (const line of s.lines) {
    running += line.credit_kobo - line.debit_kobo;
    expect(line.balance_kobo).toBe(running);
  }
  expect(s.opening_balance_kobo + s.total_credits_kobo - s.total_debits_kobo).toBe(s.closing_balance_kobo);
  expect(s.closing_balance_kobo).toBe(running);
}

describe('the member statement over random wallets and periods', () => {
  it('always balances, chains period to period, and closes on the wallet’s balance', async () => {
    const runs = Number(process.env.PROPERTY_RUNS ?? 6);
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 25 }), fc.integer({ min: 0, max: 89 }), fc.integer({ min: 0, max: 89 }), async (moves, a, b) => {
        const member = await h.registeredMember();
        await record(member.id, moves);
        const [first, last] = [Math.min(a, b), Math.max(a, b)];
        const before = await statement(member.id, '2026-01-01', dayOf(first));
        // The days after `first` up to `last` (none when they are the same day).
        const during = first < last ? await statement(member.id, dayOf(first + 1), dayOf(last)) : before;
        const after = await statement(member.id, dayOf(last + 1), '2026-12-31');
        const everything = await statement(member.id, '2026-01-01', '2026-12-31');
        for (const s of [before, during, after, everything]) expectBalanced(s);
        const between = first < last ? during.lines.length : 0;
        expect(before.opening_balance_kobo).toBe(0);
        if (first < last) expect(during.opening_balance_kobo).toBe(before.closing_balance_kobo);
        expect(after.opening_balance_kobo).toBe(during.closing_balance_kobo);
        expect(after.closing_balance_kobo).toBe(everything.closing_balance_kobo);
        expect(before.lines.length + between + after.lines.length).toBe(everything.lines.length);

        const folded = balanceOf(foldEvents(walletDecider(member.id), await readStream(t.runtime.db, walletStream(member.id))));
        expect(everything.closing_balance_kobo).toBe(folded);
        expect((await drainAll(t.runtime.db, walletLedgerProjection)).status).toBe('caught_up');
        const wallet = await t.runtime.db.selectFrom('wallets').select('balance').where('member_id', '=', member.id).executeTakeFirst();
        expect(Number(wallet?.balance ?? 0)).toBe(everything.closing_balance_kobo);
      }),
      { numRuns: runs },
    );
  }, 180_000);
});
