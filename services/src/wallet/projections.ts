import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { WithdrawalsTable } from '../database';
import { type WalletStreamEvent, type WithdrawalRequested, transferReference } from './events';

/**
 * Inline projection: the `withdrawals` table (and the member's standing withdrawal amount) change
 * in the same transaction as the wallet's events, so the next screen shows the request at once.
 * The wallet's totals are the asynchronous `wallet-ledger` projection's (compensation/projections.ts).
 */
export async function projectWithdrawals(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  await projectWithdrawalRequests(db, events);
  await projectWithdrawalAmount(db, events);
}

/** The member's standing withdrawal amount on the `members` row (the `members` read model, read-models.ts). */
export async function projectWithdrawalAmount(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<WalletStreamEvent>;
    if (event.type !== 'WithdrawalAmountSet') continue;
    await db.updateTable('members').set({ withdrawal_amount: event.data.amount_kobo, updated_at: new Date(recorded.recordedAt) }).where('id', '=', event.data.member_id).execute();
  }
}

/** The `withdrawals` row a request makes (also the command's answer: wallet/commands.ts requestWithdrawal). */
export function withdrawalRow(recorded: RecordedEvent<WithdrawalRequested>) {
  const d = recorded.data;
  const at = new Date(recorded.recordedAt);
  const actor = recorded.metadata.actor;
  return {
    id: d.withdrawal_id,
    member_id: d.member_id,
    kind: d.kind,
    automatic: d.automatic,
    amount: d.amount_kobo,
    fee: d.fee_kobo,
    net_amount: d.net_kobo,
    status: 'pending' as const,
    reason: d.reason,
    bank_name: d.bank.bank_name,
    bank_code: d.bank.bank_code,
    account_number: d.bank.account_number,
    account_name: d.bank.account_name,
    transfer_reference: transferReference(d.withdrawal_id),
    transfer_code: null,
    recipient_code: null,
    failure_reason: null,
    requested_by: actor.type === 'admin' || actor.type === 'member' ? actor.id : null,
    created_at: at,
    sent_at: null,
    completed_at: null,
    updated_at: at,
  } satisfies Insertable<WithdrawalsTable>;
}

/** `withdrawals` alone (the `withdrawals` read model). */
export async function projectWithdrawalRequests(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<WalletStreamEvent>;
    const at = new Date(recorded.recordedAt);
    const update = (withdrawalId: string, values: Updateable<WithdrawalsTable>) =>
      db.updateTable('withdrawals').set({ ...values, updated_at: at }).where('id', '=', withdrawalId).execute();
    switch (event.type) {
      case 'WithdrawalRequested': {
        await db
          .insertInto('withdrawals')
          .values(withdrawalRow(recorded as RecordedEvent<WithdrawalRequested>))
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'WithdrawalSent':
        await update(event.data.withdrawal_id, {
          status: 'processing',
          transfer_code: event.data.transfer_code,
          ...(event.data.recipient_code ? { recipient_code: event.data.recipient_code } : {}),
          sent_at: at,
        });
        break;
      case 'WithdrawalSucceeded':
        await update(event.data.withdrawal_id, { status: 'successful', completed_at: at });
        break;
      case 'WithdrawalFailed':
        await update(event.data.withdrawal_id, { status: 'failed', failure_reason: event.data.reason, completed_at: at });
        break;
      case 'WithdrawalAmountSet': // the members row: projectWithdrawalAmount
      case 'WalletPaymentMade':
      case 'BonusCredited':
      case 'BonusWithheld':
      case 'BonusHeld':
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
}
