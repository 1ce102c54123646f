import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { findPackage } from '../catalogue/queries';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import { NotFound, RuleViolation } from '../core/errors';
import type { EventMetadata, RecordedEvent } from '../core/event-store';
import { formatNaira } from '../core/money';
import type { Database } from '../database';
import type { PaystackClient } from '../gateway/paystack';
import { debitWalletForPayment } from '../wallet/commands';
import { memberDecider, memberMessages } from '../membership/decider';
import { memberEventTypes, memberStream } from '../membership/events';
import { projectMembers } from '../membership/projections';
import { findMember } from '../membership/queries';
import { type RequestedOrder, placePaidPurchase, recordPurchaseDeclined, recordPurchasePaid } from '../purchases/commands';
import { productPurchaseEventTypes } from '../purchases/events';
import type { RequestedLine } from '../purchases/decider';
import { declineUnpaidStockPurchase, placeStockPurchase, recordStockPurchasePaid } from '../stockists/commands';
import { stockPurchaseEventTypes } from '../stockists/events';
import { type PaymentState, amountDue, paymentDecider } from './decider';
import { type PackagePaymentEvent, type PackagePaymentInitiated, type PaymentMethod, type PaymentPurpose, packagePaymentEventTypes, packagePaymentStream } from './events';
import { projectPackagePayments } from './projections';

export const paymentFlowMessages = {
  alreadyPaid: 'Your registration is already paid.',
  selectUpgrade: 'Select a package for upgrade',
  upgradeNotHigher: 'You can only upgrade to a package higher than your current one.',
  receiptWaiting: 'You already have a payment receipt awaiting approval.',
  amountDiffers: (dueKobo: number) => `The amount does not match the amount due (${formatNaira(dueKobo)}).`,
  packageInvalid: 'The selected package is invalid.',
  /** A package left at ₦0 (from before prices had a floor) never activates for nothing. */
  packageUnpriced: 'This package has no registration value yet, so it cannot be paid for. Please contact the company.',
  upgradeNothingToPay: 'The package you chose does not cost more than yours, so there is nothing to pay for this upgrade. Please contact the company.',
} as const;

type Trx = Transaction<Database>;

/**
 * What settling or deciding a payment may append (runInTransaction's `appends`, decision 73): the
 * payment's events, the member's activation or upgrade, the purchase or re-stock it pays or declines.
 * None is a wallet's, so the wallet ledger does not wait for an approval; the points and bonus
 * policies, which read activations, do.
 */
export const settlingPaymentAppends: readonly string[] = [...packagePaymentEventTypes, ...memberEventTypes, ...productPurchaseEventTypes, ...stockPurchaseEventTypes];

/**
 * Starts a registration or upgrade payment: checks the member may pay, fixes the amount due from
 * the packages as they are now, and records the payment. A gateway payment is opened at the
 * provider only after this commits (so the provider never holds a payment we do not know).
 */
export async function startPackagePayment(
  ctx: CommandContext,
  input: {
    memberId: string;
    purpose: PaymentPurpose;
    method: PaymentMethod;
    /** Upgrades: the package chosen. Registrations pay for the package registered with. */
    targetPackageId: number | null;
    /** What the client showed the member; refused when it is not the amount due. */
    amountNaira: number | null;
    description: string;
    receiptPath: string | null;
  },
  metadata: EventMetadata,
): Promise<{ paymentId: string; reference: string | null; amountDueKobo: number }> {
  const paymentId = randomUUID();
  const reference = input.method === 'payment_gateway' ? `hlp-${paymentId}` : null;
  return runInTransaction(ctx, async (trx) => {
    const member = await findMember(trx, input.memberId);
    if (!member) throw new NotFound(memberMessages.unknown);
    let packageId: number;
    let fromPackageId: number | null = null;
    let dueKobo: number;
    if (input.purpose === 'registration') {
      if (member.activated_at) throw new RuleViolation(paymentFlowMessages.alreadyPaid);
      if (member.registration_expired_at) throw new RuleViolation(memberMessages.expired);
      const pkg = await findPackage(trx, member.package_id);
      if (!pkg) throw new RuleViolation(paymentFlowMessages.packageInvalid, 'package_id');
      packageId = pkg.id;
      dueKobo = amountDue('registration', { registrationValueKobo: pkg.registration_value });
    } else {
      if (!member.activated_at) throw new RuleViolation(memberMessages.notActive);
      if (!input.targetPackageId) throw new RuleViolation(paymentFlowMessages.selectUpgrade, 'meta_data');
      const [current, target] = await Promise.all([findPackage(trx, member.package_id), findPackage(trx, input.targetPackageId)]);
      if (!target || !current) throw new RuleViolation(paymentFlowMessages.packageInvalid, 'meta_data');
      if (target.id <= current.id) throw new RuleViolation(paymentFlowMessages.upgradeNotHigher, 'meta_data');
      packageId = target.id;
      fromPackageId = current.id;
      dueKobo = amountDue('upgrade', { registrationValueKobo: target.registration_value }, { registrationValueKobo: current.registration_value });
    }
    if (dueKobo <= 0) throw new RuleViolation(input.purpose === 'registration' ? paymentFlowMessages.packageUnpriced : paymentFlowMessages.upgradeNothingToPay, input.purpose === 'registration' ? 'package_id' : 'meta_data');
    if (input.amountNaira !== null && Math.round(input.amountNaira * 100) !== dueKobo) {
      throw new RuleViolation(paymentFlowMessages.amountDiffers(dueKobo), 'amount');
    }
    if (input.method === 'pop') {
      const waiting = await trx
        .selectFrom('package_payments')
        .select('id')
        .where('member_id', '=', member.id)
        .where('purpose', '=', input.purpose)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (waiting) throw new RuleViolation(paymentFlowMessages.receiptWaiting);
    }
    await openPayment(trx, {
      payment_id: paymentId,
      member_id: member.id,
      purpose: input.purpose,
      method: input.method,
      package_id: packageId,
      from_package_id: fromPackageId,
      amount_due_kobo: dueKobo,
      description: input.description,
      reference,
      receipt_path: input.receiptPath,
    }, metadata);
    return { paymentId, reference, amountDueKobo: dueKobo };
  });
}

/**
 * Starts the payment of a product purchase (BUSINESS-RULES.md §5, a repurchase pick-up): the
 * purchase is priced from the catalogue and recorded, and a payment for its total opened in the
 * same transaction. From there it is a payment like a package's: card (verify or webhook), receipt
 * (an admin approves) or wallet (at once); when it is accepted the purchase is paid (applyPayment).
 */
export async function startProductPurchasePayment(
  ctx: CommandContext,
  input: { memberId: string; method: PaymentMethod; order: RequestedOrder; amountNaira: number | null; description: string; receiptPath: string | null },
  metadata: EventMetadata,
): Promise<{ paymentId: string; purchaseId: string; reference: string | null; amountDueKobo: number }> {
  const paymentId = randomUUID();
  const purchaseId = randomUUID();
  const reference = input.method === 'payment_gateway' ? `hlp-${paymentId}` : null;
  return runInTransaction(ctx, async (trx) => {
    const priced = await placePaidPurchase(trx, { purchaseId, paymentId, memberId: input.memberId, method: input.method, order: input.order }, metadata);
    if (input.amountNaira !== null && Math.round(input.amountNaira * 100) !== priced.totalPriceKobo) {
      throw new RuleViolation(paymentFlowMessages.amountDiffers(priced.totalPriceKobo), 'amount');
    }
    await openPayment(trx, {
      payment_id: paymentId,
      member_id: input.memberId,
      purpose: 'product_purchase',
      method: input.method,
      package_id: null,
      from_package_id: null,
      amount_due_kobo: priced.totalPriceKobo,
      description: input.description,
      reference,
      receipt_path: input.receiptPath,
      purchase_id: purchaseId,
    }, metadata);
    return { paymentId, purchaseId, reference, amountDueKobo: priced.totalPriceKobo };
  });
}

/**
 * Starts the card payment of a stockist's re-stock (BUSINESS-RULES.md §5; seed 001 §7.1, txn_source
 * stockist_product_purchase): the stock purchase is priced and recorded awaiting its payment, and
 * the payment for its total opened, in one transaction. When the provider confirms it (verify or
 * webhook) the purchase goes to the admins like one paid by receipt; an admin still approves it.
 */
export async function startStockPurchasePayment(
  ctx: CommandContext,
  input: { memberId: string; lines: readonly RequestedLine[]; totals: { totalPriceKobo: number | null; totalPoints: number | null; totalQuantity: number | null }; amountNaira: number | null; description: string; now: Date },
  metadata: EventMetadata,
): Promise<{ paymentId: string; purchaseId: string; reference: string; amountDueKobo: number }> {
  const paymentId = randomUUID();
  const reference = `hlp-${paymentId}`;
  return runInTransaction(ctx, async (trx) => {
    const placed = await placeStockPurchase(trx, { memberId: input.memberId, pickupType: 're-stock', lines: input.lines, totals: input.totals, receiptPath: null, now: input.now, paymentId }, metadata);
    if (input.amountNaira !== null && Math.round(input.amountNaira * 100) !== placed.totalPriceKobo) {
      throw new RuleViolation(paymentFlowMessages.amountDiffers(placed.totalPriceKobo), 'amount');
    }
    await openPayment(trx, {
      payment_id: paymentId,
      member_id: input.memberId,
      purpose: 'stock_purchase',
      method: 'payment_gateway',
      package_id: null,
      from_package_id: null,
      amount_due_kobo: placed.totalPriceKobo,
      description: input.description,
      reference,
      receipt_path: null,
      purchase_id: placed.purchaseId,
    }, metadata);
    return { paymentId, purchaseId: placed.purchaseId, reference, amountDueKobo: placed.totalPriceKobo };
  });
}

/**
 * Records a new payment. A wallet payment is paid at once: the wallet is debited (refused when the
 * balance is short) and the payment applied in the same transaction, so either everything happens
 * or nothing does.
 */
async function openPayment(trx: Trx, data: PackagePaymentInitiated['data'], metadata: EventMetadata): Promise<void> {
  const paymentId = data.payment_id;
  const { events } = await decideOnStream(trx, packagePaymentStream(paymentId), paymentDecider, { type: 'InitiatePayment', data }, metadata);
  await projectPackagePayments(trx, events);
  if (data.method !== 'wallet') return;
  await debitWalletForPayment(trx, { paymentId, memberId: data.member_id, purpose: data.purpose, amountKobo: data.amount_due_kobo, description: data.description, packageId: data.package_id }, metadata);
  const settled = await decideOnStream(trx, packagePaymentStream(paymentId), paymentDecider, { type: 'RecordWalletPayment', data: { payment_id: paymentId, paid_at: metadata.now } }, metadata);
  await projectPackagePayments(trx, settled.events);
  const succeeded = settled.events.find((e) => e.type === 'PackagePaymentSucceeded');
  if (succeeded) await applyPayment(trx, settled.state, succeeded, metadata, { onRefusal: 'throw' });
}

/**
 * Settles a gateway payment from the provider's own answer (never from what a caller claims):
 * used by the member's verify and by the webhook, which may race; the payment stream's version
 * lets only one of them settle it, the other finds it settled and changes nothing.
 */
export async function settleGatewayPayment(
  ctx: CommandContext,
  gateway: PaystackClient,
  reference: string,
  via: 'verify' | 'webhook',
  metadata: EventMetadata,
): Promise<{ paymentId: string; memberId: string; status: string } | null> {
  const payment = await ctx.db.selectFrom('package_payments').select(['id', 'member_id']).where('reference', '=', reference).executeTakeFirst();
  if (!payment) return null;
  const transaction = await gateway.verifyTransaction(reference);
  return runInTransaction(ctx, async (trx) => {
    if (transaction) {
      const { state, events } = await decideOnStream(trx, packagePaymentStream(payment.id), paymentDecider, {
        type: 'RecordGatewayResult',
        data: { payment_id: payment.id, via, transaction },
      }, metadata);
      await projectPackagePayments(trx, events);
      const succeeded = events.find((e) => e.type === 'PackagePaymentSucceeded');
      if (succeeded) await applyPayment(trx, state, succeeded, metadata, { onRefusal: 'record' });
    }
    const row = await trx.selectFrom('package_payments').select('status').where('id', '=', payment.id).executeTakeFirstOrThrow();
    return { paymentId: payment.id, memberId: payment.member_id, status: row.status };
  }, { appends: settlingPaymentAppends });
}

/** An admin approves or declines a receipt or a flagged payment. */
export async function decideByAdmin(
  ctx: CommandContext,
  paymentId: string,
  decision: { type: 'approve' } | { type: 'decline'; reason: string },
  metadata: EventMetadata,
): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const exists = await trx.selectFrom('package_payments').select('id').where('id', '=', paymentId).executeTakeFirst();
    if (!exists) throw new NotFound('Payment not found.');
    const command = decision.type === 'approve'
      ? { type: 'ApprovePayment' as const, data: { payment_id: paymentId } }
      : { type: 'DeclinePayment' as const, data: { payment_id: paymentId, reason: decision.reason } };
    const { state, events } = await decideOnStream(trx, packagePaymentStream(paymentId), paymentDecider, command, metadata);
    await projectPackagePayments(trx, events);
    const approved = events.find((e) => e.type === 'PackagePaymentApproved');
    // An admin who approves learns at once why a payment cannot be applied; nothing is recorded.
    if (approved) await applyPayment(trx, state, approved, metadata, { onRefusal: 'throw' });
    const declined = events.find((e) => e.type === 'PackagePaymentDeclined');
    if (declined && state.status !== 'none' && state.purchaseId && state.purpose === 'stock_purchase') {
      await declineUnpaidStockPurchase(trx, state.purchaseId, declined.data.reason, { ...metadata, causation_id: declined.eventId });
    } else if (declined && state.status !== 'none' && state.purchaseId) {
      await recordPurchaseDeclined(trx, state.purchaseId, paymentId, declined.data.reason, { ...metadata, causation_id: declined.eventId });
    }
  }, { appends: settlingPaymentAppends });
}

/**
 * Applies accepted money to the member (BUSINESS-RULES.md §2): activation for a registration,
 * the new package for an upgrade, with PV and pick-up allowance from the packages as they are now;
 * for a product purchase, the purchase is paid (§5). The events name the payment event as their cause.
 */
async function applyPayment(
  trx: Trx,
  state: PaymentState,
  cause: RecordedEvent<PackagePaymentEvent>,
  metadata: EventMetadata,
  options: { onRefusal: 'record' | 'throw' },
): Promise<void> {
  if (state.status === 'none') return;
  const caused: EventMetadata = { ...metadata, causation_id: cause.eventId };
  try {
    if (state.purpose === 'product_purchase') {
      if (!state.purchaseId) throw new RuleViolation('This payment names no purchase.');
      await recordPurchasePaid(trx, state.purchaseId, state.method, caused);
    } else if (state.purpose === 'stock_purchase') {
      if (!state.purchaseId) throw new RuleViolation('This payment names no purchase.');
      await recordStockPurchasePaid(trx, { purchaseId: state.purchaseId, paymentId: state.paymentId, now: new Date(metadata.now) }, caused);
    } else if (state.purpose === 'registration') {
      const pkg = await findPackage(trx, state.packageId ?? 0);
      if (!pkg) throw new RuleViolation(paymentFlowMessages.packageInvalid);
      const { events } = await decideOnStream(trx, memberStream(state.memberId), memberDecider, {
        type: 'ActivateMember',
        data: {
          member_id: state.memberId,
          package_id: pkg.id,
          payment_id: state.paymentId,
          registration_value_kobo: state.amountDueKobo,
          point_value: pkg.point_value,
          pickup_allowance_kobo: pkg.pickup_amount,
        },
      }, caused);
      await projectMembers(trx, events);
    } else {
      const [from, to] = await Promise.all([findPackage(trx, state.fromPackageId ?? 0), findPackage(trx, state.packageId ?? 0)]);
      if (!from || !to) throw new RuleViolation(paymentFlowMessages.packageInvalid);
      const { events } = await decideOnStream(trx, memberStream(state.memberId), memberDecider, {
        type: 'UpgradePackage',
        data: {
          member_id: state.memberId,
          payment_id: state.paymentId,
          from_package_id: from.id,
          to_package_id: to.id,
          difference_kobo: state.amountDueKobo,
          point_value_added: Math.max(0, to.point_value - from.point_value),
          pickup_allowance_kobo: Math.max(0, to.pickup_amount - from.pickup_amount),
        },
      }, caused);
      await projectMembers(trx, events);
    }
  } catch (error) {
    if (!(error instanceof RuleViolation) || options.onRefusal === 'throw') throw error;
    const { events } = await decideOnStream(trx, packagePaymentStream(state.paymentId), paymentDecider, {
      type: 'MarkNotApplied',
      data: { payment_id: state.paymentId, reason: error.message },
    }, caused);
    await projectPackagePayments(trx, events);
  }
}
