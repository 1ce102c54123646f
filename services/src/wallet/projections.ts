import type { Insertable, Updateable } from 'kysely';
import { type ProjectionWrite, runWrites } from '../core/command';
import type { Executor } from '../core/db';
import type { PendingEvent } from '../core/event-store';
import type { WithdrawalsTable } from '../database';
import { type MemberChange, memberChangeWrite } from '../membership/member-changes';
import { type WalletStreamEvent, type WithdrawalRequested, transferReference } from './events';

/**
 * Inline projection: the `withdrawals` table (and the member's standing withdrawal amount) change
 * in the same transaction as the wallet's events, so the next screen shows the request at once.
 * The wallet's totals are the asynchronous `wallet-ledger` projection's (compensation/projections.ts).
 */
export async function projectWithdrawals(db: Executor, events: readonly PendingEvent[]): Promise<void> {
  await runWrites(db, withdrawalWrites(db, events));
}

/** projectWithdrawals' statements, not yet run (requestWithdrawal runs them alongside its append). */
export function withdrawalWrites(db: Executor, events: readonly PendingEvent[]): ProjectionWrite[] {
  return [...withdrawalRequestWrites(db, events), ...withdrawalAmountWrites(db, events)];
}

/** The member's standing withdrawal amount on the `members` row (the `members` read model, read-models.ts). */
export async function projectWithdrawalAmount(db: Executor, events: readonly PendingEvent[]): Promise<void> {
  await runWrites(db, withdrawalAmountWrites(db, events));
}

function withdrawalAmountWrites(db: Executor, events: readonly PendingEvent[]): ProjectionWrite[] {
  return events.flatMap((recorded) => withdrawalAmountChanges(recorded).map((change) => memberChangeWrite(db, change)));
}

/** The standing withdrawal amount an event sets on the members row (MemberChange: one event or a batch at a time). */
export function withdrawalAmountChanges(recorded: PendingEvent): MemberChange[] {
  const event = recorded as unknown as PendingEvent<WalletStreamEvent>;
  if (event.type !== 'WithdrawalAmountSet') return [];
  return [{ memberId: event.data.member_id, set: { withdrawal_amount: event.data.amount_kobo, updated_at: new Date(recorded.recordedAt) } }];
}

/** The `withdrawals` row a request makes (also the command's answer: wallet/commands.ts requestWithdrawal). */
export function withdrawalRow(recorded: PendingEvent<WithdrawalRequested>) {
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

/**
 * `withdrawals` alone (the `withdrawals` read model). A batch in two steps: one insert of all its
 * requests (a request is its stream's first event, so it comes before any change to its row),
 * then one update a withdrawal, its changes in the batch folded in log order (each sets constants,
 * so the fold is what the updates one after the other would leave). A rebuild reads 500 events a
 * batch: one statement a withdrawal instead of one an event.
 */
export async function projectWithdrawalRequests(db: Executor, events: readonly PendingEvent[]): Promise<void> {
  await runWrites(db, withdrawalRequestWrites(db, events));
}

function withdrawalRequestWrites(db: Executor, events: readonly PendingEvent[]): ProjectionWrite[] {
  const writes: ProjectionWrite[] = [];
  const requests: Array<ReturnType<typeof withdrawalRow>> = [];
  const changes = new Map<string, Updateable<WithdrawalsTable>>();
  for (const recorded of events) {
    const event = recorded as unknown as PendingEvent<WalletStreamEvent>;
    const at = new Date(recorded.recordedAt);
    const change = (withdrawalId: string, values: Updateable<WithdrawalsTable>) =>
      changes.set(withdrawalId, { ...changes.get(withdrawalId), ...values, updated_at: at });
    switch (event.type) {
      case 'WithdrawalRequested':
        requests.push(withdrawalRow(recorded as PendingEvent<WithdrawalRequested>));
        break;
      case 'WithdrawalSent':
        change(event.data.withdrawal_id, {
          status: 'processing',
          transfer_code: event.data.transfer_code,
          ...(event.data.recipient_code ? { recipient_code: event.data.recipient_code } : {}),
          sent_at: at,
        });
        break;
      case 'WithdrawalSucceeded':
        change(event.data.withdrawal_id, { status: 'successful', completed_at: at });
        break;
      case 'WithdrawalFailed':
        change(event.data.withdrawal_id, { status: 'failed', failure_reason: event.data.reason, completed_at: at });
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
  // 23 columns a row: 2,000 rows a statement stay under PostgreSQL's 65,535 parameters.
  for (let i = 0; i < requests.length; i += 2000) {
    writes.push(db.insertInto('withdrawals').values(requests.slice(i, i + 2000)).onConflict((oc) => oc.column('id').doNothing()));
  }
  for (const [withdrawalId, values] of changes) writes.push(db.updateTable('withdrawals').set(values).where('id', '=', withdrawalId));
  return writes;
}
