import { type Insertable, type Updateable, sql } from 'kysely';
import { type ProjectionWrite, runWrites } from '../core/command';
import { type DailyTotals, amongKeys, keepingDailyTotalsOf } from '../core/daily-totals';
import type { Executor } from '../core/db';
import type { PendingEvent, RecordedEvent } from '../core/event-store';
import { type RowChange, projectRowsInBatches } from '../core/row-changes';
import { projectRowsAt } from '../core/row-changes-at';
import type { WithdrawalsTable } from '../database';
import { type MemberChange, memberChangeWrite } from '../membership/member-changes';
import { type WalletStreamEvent, type WithdrawalRequested, transferReference } from './events';

/**
 * Inline projection: the `withdrawals` table (and the member's standing withdrawal amount) change
 * in the same transaction as the wallet's events, so the next screen shows the request at once.
 * The wallet's totals are the asynchronous `wallet-ledger` projection's (compensation/projections.ts).
 */
export async function projectWithdrawals(db: Executor, events: readonly PendingEvent[]): Promise<void> {
  await keepingDailyTotalsOf(db, withdrawalTotals, events, () => runWrites(db, withdrawalWrites(db, events)));
}

/**
 * What the admin dashboard's company wallet sums of the withdrawals: a successful one (paid out),
 * on the Lagos day it completed, for its amount. Only a transfer's events (sent, succeeded, failed:
 * a reversal) change it; a request is pending, so the request command pays nothing for it.
 */
export const withdrawalTotals: DailyTotals = {
  table: 'daily_withdrawal_totals',
  contributions: (keys) => sql`
    select (coalesce(completed_at, updated_at) at time zone 'Africa/Lagos')::date as day, 'successful' as key, amount
    from withdrawals where ${amongKeys('id', keys)} and status = 'successful'`,
  changedBy: { eventTypes: ['WithdrawalSent', 'WithdrawalSucceeded', 'WithdrawalFailed'], keyField: 'withdrawal_id' },
};

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
 * `withdrawals` alone, as the commands write it: one event at a time, from the same data as the
 * rebuilds' batches (withdrawalRow, withdrawalChanges; projectWithdrawalsInBatches).
 */
export async function projectWithdrawalRequests(db: Executor, events: readonly PendingEvent[]): Promise<void> {
  await keepingDailyTotalsOf(db, withdrawalTotals, events, () => runWrites(db, withdrawalRequestWrites(db, events)));
}

/** projectWithdrawalRequests' statements, not yet run (a command runs them alongside its append). */
function withdrawalRequestWrites(db: Executor, events: readonly PendingEvent[]): ProjectionWrite[] {
  return events.flatMap((recorded) => [
    ...(recorded.type === 'WithdrawalRequested'
      ? [db.insertInto('withdrawals').values(withdrawalRow(recorded as PendingEvent<WithdrawalRequested>)).onConflict((oc) => oc.column('id').doNothing())]
      : []),
    ...withdrawalChanges(recorded).map((change) => db.updateTable('withdrawals').set(change.set).where('id', '=', change.key)),
  ]);
}

/** The changes a withdrawal's later events make to its row (one event at a time or a batch at a time). */
export function withdrawalChanges(recorded: PendingEvent): Array<RowChange & { set: Updateable<WithdrawalsTable> }> {
  const event = recorded as unknown as PendingEvent<WalletStreamEvent>;
  const at = new Date(recorded.recordedAt);
  switch (event.type) {
    case 'WithdrawalSent':
      return [{
        key: event.data.withdrawal_id,
        set: { status: 'processing', transfer_code: event.data.transfer_code, ...(event.data.recipient_code ? { recipient_code: event.data.recipient_code } : {}), sent_at: at, updated_at: at },
      }];
    case 'WithdrawalSucceeded':
      return [{ key: event.data.withdrawal_id, set: { status: 'successful', completed_at: at, updated_at: at } }];
    case 'WithdrawalFailed':
      return [{ key: event.data.withdrawal_id, set: { status: 'failed', failure_reason: event.data.reason, completed_at: at, updated_at: at } }];
    case 'WithdrawalRequested': // the row itself: withdrawalRow
    case 'WithdrawalAmountSet': // the members row: projectWithdrawalAmount
    case 'WalletPaymentMade':
    case 'BonusCredited':
    case 'BonusWithheld':
    case 'BonusHeld':
      return [];
    default: {
      const unknownEvent: never = event;
      void unknownEvent;
      return [];
    }
  }
}

/**
 * The `withdrawals` read model a batch at a time (rebuilds; core/row-changes.ts): the batch's
 * requests in one statement, each carrying the changes that follow it in the batch, and every
 * other withdrawal's changes folded in log order and written by one UPDATE per set of columns
 * (it was one UPDATE a withdrawal). A property test compares it with projectWithdrawalRequests one
 * event at a time (withdrawals-batch.property.int.spec.ts).
 */
export const projectWithdrawalsInBatches = projectRowsInBatches({
  table: 'withdrawals',
  key: { column: 'id', type: 'uuid' },
  insertOf: (recorded) => (recorded.type === 'WithdrawalRequested' ? withdrawalRow(recorded as RecordedEvent<WithdrawalRequested>) : null),
  changesOf: [withdrawalChanges],
});

/**
 * projectWithdrawalsInBatches inside PostgreSQL (rebuilds' `applyAt`: the batch by log position,
 * one statement, core/row-changes-at.ts): withdrawalRow and withdrawalChanges in SQL. The same rows
 * (withdrawals-batch.property.int.spec.ts compares it with the event-by-event projection).
 */
export const projectWithdrawalsAt = projectRowsAt({
  table: 'withdrawals',
  key: { column: 'id', type: 'uuid' },
  inserts: sql`
    select data->>'withdrawal_id' as key, ord, jsonb_build_object(
      'id', data->'withdrawal_id', 'member_id', data->'member_id', 'kind', data->'kind', 'automatic', data->'automatic', 'amount', data->'amount_kobo',
      'fee', data->'fee_kobo', 'net_amount', data->'net_kobo', 'status', 'pending', 'reason', data->'reason',
      'bank_name', data->'bank'->'bank_name', 'bank_code', data->'bank'->'bank_code', 'account_number', data->'bank'->'account_number', 'account_name', data->'bank'->'account_name',
      'transfer_reference', 'wdl_' || lower(data->>'withdrawal_id'), 'transfer_code', null, 'recipient_code', null, 'failure_reason', null,
      'requested_by', case when metadata->'actor'->>'type' in ('admin', 'member') then metadata->'actor'->'id' end,
      'created_at', recorded_at, 'sent_at', null, 'completed_at', null, 'updated_at', recorded_at) as row
    from batch where type = 'WithdrawalRequested'`,
  changes: sql`
    select data->>'withdrawal_id' as key, ord, 0 as sub,
      case type
        when 'WithdrawalSent' then jsonb_build_object('status', 'processing', 'transfer_code', data->'transfer_code', 'sent_at', recorded_at, 'updated_at', recorded_at)
          -- the recipient code only when the transfer gave one (a falsy one leaves the column)
          || case when coalesce(data->>'recipient_code', '') <> '' then jsonb_build_object('recipient_code', data->'recipient_code') else '{}' end
        when 'WithdrawalSucceeded' then jsonb_build_object('status', 'successful', 'completed_at', recorded_at, 'updated_at', recorded_at)
        when 'WithdrawalFailed' then jsonb_build_object('status', 'failed', 'failure_reason', data->'reason', 'completed_at', recorded_at, 'updated_at', recorded_at)
      end as set
    from batch where type in ('WithdrawalSent', 'WithdrawalSucceeded', 'WithdrawalFailed')`,
  settable: ['status', 'transfer_code', 'recipient_code', 'sent_at', 'completed_at', 'failure_reason', 'updated_at'],
});
