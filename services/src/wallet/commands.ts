import { createHash } from 'node:crypto';
import { type RawBuilder, type Selectable, type Transaction, sql } from 'kysely';
import { type CommandContext, decideOnStream, recentlyContended, runCommand, runInTransaction, writeDecision } from '../core/command';
import { type LoadedStream, type ReadAhead, type SnapshotPolicy, type StreamRead, loadStream, streamRead } from '../core/snapshots';
import type { Executor } from '../core/db';
import { NotFound, RuleViolation } from '../core/errors';
import type { EventMetadata, RecordedEvent } from '../core/event-store';
import type { Kobo } from '../core/money';
import type { Database, WithdrawalStatus, WithdrawalsTable } from '../database';
import { type GatewayTransfer, PaystackError, type PaystackClient } from '../gateway/paystack';
import { getSettings } from '../settings/projections';
import type { Withdrawal } from '../contracts/wallet';
import { settingsValues } from '../settings/values';
import { type WalletCommand, type WalletState, withdrawalRules, walletDecider } from './decider';
import { type BankSnapshot, type WithdrawalKind, type WithdrawalRequested, walletStream, withdrawalIdOfReference } from './events';
import { companyDate, hasSchedule, isPayoutDay } from './payout-schedule';
import { projectWithdrawals, withdrawalRow, withdrawalWrites } from './projections';
import { toWithdrawal } from './queries';

type Trx = Transaction<Database>;
type Log = { warn: (details: object, message: string) => void };
const quiet: Log = { warn: () => {} };

/**
 * The first statement of every command on a wallet stream: the same per-stream lock the
 * compensation policy takes before it appends a bonus, so credits and debits of one wallet
 * are decided one at a time, each on the balance the previous one left.
 */
export async function lockWalletStream(trx: Trx, memberId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`stream:${walletStream(memberId)}`}, 0))`.execute(trx);
}

/**
 * Wallet streams are folded from a snapshot (core/snapshots.ts): a command reads the snapshot and
 * the events after it, not every bonus and withdrawal the wallet ever had. Bump the kind when
 * evolveWallet or WalletState changes.
 */
export const WALLET_SNAPSHOTS: SnapshotPolicy = { kind: 'wallet/1', every: 16 };

/**
 * The wallet folded from its snapshot, and `facts` (a jsonb expression) read in the same statement;
 * `lock`: taking the wallet stream's lock in that statement too (lockWalletStream's lock).
 */
function loadWallet<Facts = undefined>(trx: Executor, memberId: string, options: { facts?: RawBuilder<Facts>; lock?: boolean; ahead?: ReadAhead | null } = {}) {
  return loadStream(trx, walletStream(memberId), walletDecider(memberId), WALLET_SNAPSHOTS, options);
}

/** Decides on a wallet stream whose lock the transaction already holds, and projects the result. */
async function decideOnWallet(trx: Trx, memberId: string, command: WalletCommand, metadata: EventMetadata, loaded?: LoadedStream<WalletState>) {
  const result = await decideOnStream(trx, walletStream(memberId), walletDecider(memberId), command, metadata, loaded ?? (await loadWallet(trx, memberId)));
  await projectWithdrawals(trx, result.events);
  return result;
}

/**
 * A stable id from a seed (an RFC 9562 version 8 UUID of its SHA-256): the standing amount's
 * request of one payout day, or a request retried under the same Idempotency-Key, gets the same
 * withdrawal id, which the wallet records once.
 */
export function derivedId(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type ProfileBank = { bank_name: string | null; bank_code: string | null; bank_account_number: string | null; bank_account_name: string | null };

function verifiedBankAccount(profile: ProfileBank | null | undefined): BankSnapshot | null {
  // Bank details are saved only after the provider resolved the account's name (profile/routes.ts).
  if (!profile?.bank_code || !profile.bank_account_number || !profile.bank_account_name) return null;
  return { bank_name: profile.bank_name ?? '', bank_code: profile.bank_code, account_number: profile.bank_account_number, account_name: profile.bank_account_name };
}

/** What a withdrawal request needs besides the wallet: the member, the settings and the bank details. */
type WithdrawalFacts = {
  member: { id: string; activated_at: string | null; deactivated: boolean; username: string; first_name: string; last_name: string } | null;
  settings: unknown;
  bank: ProfileBank | null;
};

/** The facts as one jsonb expression, read in the wallet's statement (loadStream). */
const withdrawalFacts = (memberId: string) => sql<WithdrawalFacts>`jsonb_build_object(
  'member', (select to_jsonb(m) from (select id, activated_at, deactivated, username, first_name, last_name from members where id = ${memberId}) m),
  'settings', (select "values" from settings where id = 1),
  'bank', (select to_jsonb(p) from (select bank_name, bank_code, bank_account_number, bank_account_name from member_profiles where member_id = ${memberId}) p))`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * requestWithdrawal's first read of `memberId`'s wallet, to run ahead with the session check
 * (auth/guards.ts `readAhead`): null for what is not a member id (the route's schema refuses it
 * after the guards), or a wallet whose next request takes its lock with the read (runCommand).
 */
export function withdrawalRead(memberId: string | undefined): StreamRead | null {
  if (!memberId || !UUID.test(memberId) || recentlyContended(walletStream(memberId))) return null;
  return streamRead(walletStream(memberId), WALLET_SNAPSHOTS, { facts: withdrawalFacts(memberId) });
}

/**
 * A member's withdrawal or an admin's payout: the wallet is debited at once; the transfer goes out
 * on the payout schedule (`sendNow` tells the caller to send it straight away: no schedule, or a
 * payout an administrator is making now). `withdrawal`: the request as recorded now, with the
 * member's names, so the route answers without reading it back; null when nothing was recorded
 * (the same request again).
 *
 * Two statements and no explicit transaction (runCommand, issue 13 item 2): the wallet's snapshot,
 * the events after it, the member, the settings and the bank details, in one; then the wallet
 * stream's lock, the append at the version read and the withdrawals row (and every 16 events a
 * new snapshot), in one. A wallet that moved in between (a bonus, another withdrawal) refuses the
 * append, and the request is decided again on a fresh read, then under the wallet's lock as before
 * (lockOnRetry): the overdraft guard always decides on the balance the append follows.
 * `ahead`: the first read, made with the session check (withdrawalRead): one statement less.
 */
export async function requestWithdrawal(
  ctx: CommandContext,
  input: { withdrawalId: string; memberId: string; kind: WithdrawalKind; amountKobo: Kobo; reason: string; automatic?: boolean },
  metadata: EventMetadata,
  options: { ahead?: ReadAhead | null } = {},
): Promise<{ withdrawalId: string; recorded: boolean; sendNow: boolean; withdrawal: Withdrawal | null }> {
  return runCommand(ctx, async (run) => {
    const loaded = await loadWallet(run.db, input.memberId, { facts: withdrawalFacts(input.memberId), lock: run.locked, ahead: options.ahead });
    const member = loaded.facts?.member;
    if (!member) throw new NotFound('Member not found.');
    if (!loaded.facts?.settings) throw new NotFound('The company settings are not set up yet.');
    const settings = settingsValues.parse(loaded.facts.settings);
    const decider = walletDecider(member.id);
    const decided = decider.decide({
      type: 'RequestWithdrawal',
      data: {
        withdrawal_id: input.withdrawalId,
        member_id: member.id,
        kind: input.kind,
        amount_kobo: input.amountKobo,
        reason: input.reason,
        automatic: input.automatic ?? false,
        member_active: member.activated_at !== null && !member.deactivated,
        bank: verifiedBankAccount(loaded.facts.bank),
        rules: withdrawalRules(settings),
      },
    }, loaded.state);
    const { events } = await writeDecision(run, walletStream(member.id), decider, loaded, decided, metadata, { lock: true, project: withdrawalWrites });
    const requested = events.find((e) => e.type === 'WithdrawalRequested');
    return {
      withdrawalId: input.withdrawalId,
      recorded: events.length > 0,
      sendNow: input.kind === 'payout' || !hasSchedule(settings),
      withdrawal: requested ? toWithdrawal({ ...withdrawalRow(requested as RecordedEvent<WithdrawalRequested>), username: member.username, first_name: member.first_name, last_name: member.last_name }) : null,
    };
  }, { lockOnRetry: true, stream: walletStream(input.memberId) });
}

/** PUT /users/withdrawal-amount: what each payout run requests for the member when the balance allows. */
export async function setStandingWithdrawalAmount(ctx: CommandContext, memberId: string, amountKobo: Kobo, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    await lockWalletStream(trx, memberId);
    const member = await trx.selectFrom('members').select('id').where('id', '=', memberId).executeTakeFirst();
    if (!member) throw new NotFound('Member not found.');
    const settings = await getSettings(trx);
    await decideOnWallet(trx, memberId, {
      type: 'SetStandingWithdrawalAmount',
      data: { member_id: memberId, amount_kobo: amountKobo, rules: { minimum_kobo: settings.minimum_withdrawal_kobo, maximum_kobo: settings.maximum_withdrawal_kobo } },
    }, metadata);
  });
}

/**
 * The wallet's half of paying with the wallet (PATCH /withdrawals/pay-with-wallet): debits the
 * amount for `paymentId` once, or refuses with 'Insufficient wallet balance.'. For a unit of work
 * that also records the payment and applies it: call this FIRST in its transaction (it takes the
 * wallet's lock and makes the transaction's first append), then the payment's own streams.
 */
export async function debitWalletForPayment(
  trx: Trx,
  input: { paymentId: string; memberId: string; purpose: string; amountKobo: Kobo; description: string; packageId: number | null },
  metadata: EventMetadata,
): Promise<{ debited: boolean }> {
  await lockWalletStream(trx, input.memberId);
  const { events } = await decideOnWallet(trx, input.memberId, {
    type: 'PayFromWallet',
    data: { payment_id: input.paymentId, member_id: input.memberId, purpose: input.purpose, amount_kobo: input.amountKobo, cause: { description: input.description, package_id: input.packageId } },
  }, metadata);
  return { debited: events.length > 0 };
}

/** Records on the wallet what the provider said about a transfer; each outcome applies once. */
async function recordOnWallet(ctx: CommandContext, memberId: string, command: WalletCommand, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    await lockWalletStream(trx, memberId);
    await decideOnWallet(trx, memberId, command, metadata);
  });
}

/** The provider keeps one recipient per account; reuse the code a past transfer to this account got. */
async function recipientFor(db: Executor, gateway: PaystackClient, row: Selectable<WithdrawalsTable>): Promise<string> {
  const known = await db
    .selectFrom('withdrawals')
    .select('recipient_code')
    .where('member_id', '=', row.member_id)
    .where('bank_code', '=', row.bank_code)
    .where('account_number', '=', row.account_number)
    .where('recipient_code', 'is not', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (known?.recipient_code) return known.recipient_code;
  const created = await gateway.createTransferRecipient({ name: row.account_name, accountNumber: row.account_number, bankCode: row.bank_code });
  return created.recipientCode;
}

const isDuplicateReference = (error: PaystackError) => /reference already exists|duplicate/i.test(error.message);
const isProviderBalanceShort = (error: PaystackError) => error.code === 'insufficient_balance' || /balance is not enough/i.test(error.message);
/** A 400/422 means the provider refused and took nothing; anything else (no answer, 5xx, 429, our balance) may pass. */
const isRefusal = (error: PaystackError) => (error.httpStatus === 400 || error.httpStatus === 422) && !isProviderBalanceShort(error);

/**
 * Sends a pending withdrawal to the member's bank: the transfer recipient, then the transfer with
 * the reference derived from the withdrawal id. Retrying after an unclear failure asks for the same
 * reference, so the provider never pays twice; a transient failure leaves the withdrawal pending
 * for the next payout run (and throws). Answers the withdrawal's status afterwards.
 */
export async function sendWithdrawal(ctx: CommandContext, gateway: PaystackClient, withdrawalId: string, metadata: EventMetadata): Promise<WithdrawalStatus | null> {
  const row = await ctx.db.selectFrom('withdrawals').selectAll().where('id', '=', withdrawalId).executeTakeFirst();
  if (!row) return null;
  if (row.status !== 'pending') return row.status;
  const reference = row.transfer_reference;
  let recipientCode: string | null = null;
  let transfer: GatewayTransfer | null;
  try {
    recipientCode = await recipientFor(ctx.db, gateway, row);
    transfer = await gateway.initiateTransfer({
      amountKobo: row.net_amount,
      recipientCode,
      reference,
      reason: row.kind === 'payout' ? row.reason || 'Payout' : 'Wallet withdrawal',
    });
  } catch (error) {
    if (!(error instanceof PaystackError)) throw error;
    if (isDuplicateReference(error)) {
      transfer = await gateway.verifyTransfer(reference);
    } else if (isRefusal(error)) {
      await recordOnWallet(ctx, row.member_id, { type: 'RecordTransferRefused', data: { withdrawal_id: row.id, reason: `The payment provider refused the transfer: ${error.message}` } }, metadata);
      return 'failed';
    } else {
      throw error;
    }
  }
  if (transfer) {
    await recordOnWallet(ctx, row.member_id, {
      type: 'RecordTransferSent',
      data: { withdrawal_id: row.id, transfer_reference: transfer.reference, transfer_code: transfer.transferCode, recipient_code: recipientCode, transfer_status: transfer.status },
    }, metadata);
  }
  const after = await ctx.db.selectFrom('withdrawals').select('status').where('id', '=', withdrawalId).executeTakeFirstOrThrow();
  return after.status;
}

/** Sends at once, but a provider that cannot be reached only delays the withdrawal to the next run. */
export async function sendWithdrawalQuietly(ctx: CommandContext, gateway: PaystackClient, withdrawalId: string, metadata: EventMetadata, log: Log = quiet): Promise<void> {
  try {
    await sendWithdrawal(ctx, gateway, withdrawalId, metadata);
  } catch (error) {
    log.warn({ err: error, withdrawalId }, 'withdrawal not sent yet; the payout run retries it');
  }
}

const TRANSFER_OUTCOMES = { 'transfer.success': 'success', 'transfer.failed': 'failed', 'transfer.reversed': 'reversed' } as const;
export type TransferWebhookEvent = keyof typeof TRANSFER_OUTCOMES;
export const isTransferWebhook = (event: unknown): event is TransferWebhookEvent => typeof event === 'string' && event in TRANSFER_OUTCOMES;

/**
 * The provider's word on a transfer (a signed webhook, or its verify answer): recorded on the
 * member's wallet once; a failed or reversed transfer returns the money. References that are not
 * a withdrawal's are ignored. Answers whether it was a withdrawal's.
 */
export async function applyTransferOutcome(
  ctx: CommandContext,
  report: { event: TransferWebhookEvent; reference: string; transferCode: string | null; via: 'webhook' | 'verify' },
  metadata: EventMetadata,
): Promise<boolean> {
  const withdrawalId = withdrawalIdOfReference(report.reference);
  if (!withdrawalId) return false;
  const row = await ctx.db.selectFrom('withdrawals').select(['member_id', 'transfer_code']).where('id', '=', withdrawalId).executeTakeFirst();
  if (!row) return false;
  await recordOnWallet(ctx, row.member_id, {
    type: 'RecordTransferOutcome',
    data: {
      withdrawal_id: withdrawalId,
      outcome: TRANSFER_OUTCOMES[report.event],
      transfer_reference: report.reference,
      transfer_code: report.transferCode ?? row.transfer_code ?? '',
      via: report.via,
      reason: null,
    },
  }, metadata);
  return true;
}

/** POST /payments/webhook's transfer events (payments/routes.ts hands them here). */
export async function applyTransferWebhook(ctx: CommandContext, event: TransferWebhookEvent, data: { reference?: unknown; transfer_code?: unknown }, metadata: EventMetadata): Promise<void> {
  if (typeof data.reference !== 'string') return;
  await applyTransferOutcome(ctx, { event, reference: data.reference, transferCode: typeof data.transfer_code === 'string' ? data.transfer_code : null, via: 'webhook' }, metadata);
}

const systemMetadata = (id: string, now: Date, correlation: string): EventMetadata => ({
  actor: { type: 'system', id },
  now: now.toISOString(),
  causation_id: null,
  correlation_id: correlation,
});

/** A transfer still `processing` this long after it was sent is asked about, in case its webhook was lost. */
const RECONCILE_AFTER_MS = 30 * 60_000;
const STANDING_REASON = 'Standing withdrawal amount';

/**
 * The payout run (worker/schedules.ts), safe to run often and in several places:
 * - on a payout day, requests each member's standing withdrawal amount the balance allows (one
 *   request per member per day: its id comes from the day) and sends every pending withdrawal;
 * - on any day, sends pending admin payouts, and asks the provider about transfers whose outcome
 *   never arrived.
 */
export async function runPayouts(deps: { commands: CommandContext; gateway: PaystackClient; log?: Log }, now: Date, limit = 500) {
  const { commands: ctx, gateway } = deps;
  const log = deps.log ?? quiet;
  const day = companyDate(now);
  const metadata = systemMetadata('payout-run', now, `payout-run-${now.toISOString()}`);
  const settings = await getSettings(ctx.db);
  const payoutDay = isPayoutDay(settings, now);
  const summary = { payout_day: payoutDay, requested: 0, sent: 0, reconciled: 0 };

  if (payoutDay) {
    // The ledger's balance only picks candidates; each request is decided on the wallet itself.
    const standing = await ctx.db
      .selectFrom('members as m')
      .innerJoin('wallets as w', 'w.member_id', 'm.id')
      .select(['m.id', 'm.withdrawal_amount'])
      .where('m.withdrawal_amount', '>', 0)
      .whereRef('w.balance', '>=', 'm.withdrawal_amount')
      .where('m.activated_at', 'is not', null)
      .where('m.deactivated', '=', false)
      .orderBy('m.id')
      .limit(limit)
      .execute();
    for (const member of standing) {
      try {
        const result = await requestWithdrawal(ctx, {
          withdrawalId: derivedId(`standing:${member.id}:${day}`),
          memberId: member.id,
          kind: 'withdrawal',
          amountKobo: member.withdrawal_amount,
          reason: STANDING_REASON,
          automatic: true,
        }, metadata);
        if (result.recorded) summary.requested++;
      } catch (error) {
        if (!(error instanceof RuleViolation)) throw error;
      }
    }
  }

  let pendingQuery = ctx.db.selectFrom('withdrawals').select('id').where('status', '=', 'pending');
  if (!payoutDay) pendingQuery = pendingQuery.where('kind', '=', 'payout');
  const pending = await pendingQuery.orderBy('created_at').limit(limit).execute();
  for (const withdrawal of pending) {
    try {
      const status = await sendWithdrawal(ctx, gateway, withdrawal.id, metadata);
      if (status !== 'pending') summary.sent++;
    } catch (error) {
      log.warn({ err: error, withdrawalId: withdrawal.id }, 'withdrawal not sent; the next payout run retries it');
    }
  }

  const stale = await ctx.db
    .selectFrom('withdrawals')
    .select(['transfer_reference', 'transfer_code'])
    .where('status', '=', 'processing')
    .where('sent_at', '<', new Date(now.getTime() - RECONCILE_AFTER_MS))
    .orderBy('sent_at')
    .limit(limit)
    .execute();
  for (const withdrawal of stale) {
    try {
      const transfer = await gateway.verifyTransfer(withdrawal.transfer_reference);
      const event = transfer ? (`transfer.${transfer.status === 'abandoned' || transfer.status === 'blocked' || transfer.status === 'rejected' ? 'failed' : transfer.status}` as const) : null;
      if (transfer && isTransferWebhook(event)) {
        await applyTransferOutcome(ctx, { event, reference: withdrawal.transfer_reference, transferCode: transfer.transferCode, via: 'verify' }, metadata);
        summary.reconciled++;
      }
    } catch (error) {
      log.warn({ err: error, reference: withdrawal.transfer_reference }, 'could not ask the provider about a transfer');
    }
  }
  return summary;
}
