import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { authenticate, requireAdmin, requireSelfOrAdmin, requireSignedIn } from '../auth/guards';
import { envelope } from '../contracts/http';
import { idField, pageNumber } from '../contracts/fields';
import {
  initiatePaymentBody,
  initiatedGatewayPayment,
  packageDifference as packageDifferenceShape,
  packagePayment,
  paymentMessages,
  verifiedPayment,
  verifyPaymentBody,
} from '../contracts/payments';
import { DomainError, Forbidden, NotFound, RuleViolation } from '../core/errors';
import { koboToNaira } from '../core/money';
import { parseFormFields, readForm, storeImage, uploadMessages } from '../core/uploads';
import { PaystackError } from '../gateway/paystack';
import { findMember } from '../membership/queries';
import { purchaseOrderBody, purchasePaymentMessages } from '../contracts/purchases';
import { decideByAdmin, settleGatewayPayment, startPackagePayment, startProductPurchasePayment, startStockPurchasePayment } from './commands';
import { countPayments, findPayment, packageDifference, pagePayments } from './queries';
import { applyTransferWebhook, isTransferWebhook } from '../wallet/commands';

const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });
const paymentParams = z.object({ id: z.uuid({ error: 'Payment not found.' }) });
const listQuery = z.object({ page: pageNumber, count: z.string().optional() });
const pagedPayments = z.object({ data: z.array(packagePayment), current_page: z.number(), last_page: z.number(), per_page: z.number(), total: z.number() });
/** `?count` (any value) asks for the number only (seed 002 §7 "count variant"). */
const listOrCount = z.union([pagedPayments, z.number()]);
const decisionBody = z.object({ reason: z.string().max(500).optional() }).nullish();
const RECEIPT_FIELDS = ['payment_receipt', 'receipt', 'file', 'image'];

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Starts a payment by card (answers the provider's page), by receipt (multipart) or from the
   * wallet: of a package (txn_source package_payment) or of a product purchase (member_product_purchase,
   * a repurchase pick-up: the cart is priced by the server).
   */
  async function initiate(request: FastifyRequest, options: { fromWallet?: boolean } = {}) {
    const account = await authenticate(request);
    if (account.kind !== 'member') throw new Forbidden('This is for members only.');
    const form = await readForm(request);
    const body = parseFormFields(initiatePaymentBody, options.fromWallet ? { payment_type: 'payment_gateway', ...form.fields } : form.fields);
    const isPurchase = body.txn_source === 'member_product_purchase';
    const isStock = body.txn_source === 'stockist_product_purchase';
    if (!isPurchase && !isStock && body.txn_source !== 'package_payment') throw new RuleViolation(purchasePaymentMessages.unknownSource, 'txn_source');
    const member = await findMember(app.db, account.id);
    if (!member) throw new NotFound('Member not found.');
    const metadata = requestMetadata(request, app.clock());
    type Started = { paymentId: string; reference: string | null; amountDueKobo: number; purchaseId?: string };
    let purpose: 'registration' | 'upgrade' | 'product_purchase' | 'stock_purchase';
    let start: (method: 'payment_gateway' | 'pop' | 'wallet', receiptPath: string | null) => Promise<Started>;
    if (isStock) {
      // A stockist's re-stock by card (seed 001 §7.1); the pick-up type is re-stock whatever is sent.
      if (options.fromWallet || body.payment_type !== 'payment_gateway') throw new RuleViolation(purchasePaymentMessages.stockByCardOnly, 'payment_type');
      const order = parseFormFields(purchaseOrderBody, { ...form.fields, pickup_type: 'repurchase_pickup' });
      purpose = 'stock_purchase';
      const stock = {
        memberId: member.id,
        lines: order.products,
        totals: { totalPriceKobo: order.total_price === null ? null : Math.round(order.total_price * 100), totalPoints: order.total_points, totalQuantity: order.total_quantity },
        amountNaira: body.amount,
        description: body.description || 'Stockist re-stock',
        now: app.clock(),
      };
      start = () => startStockPurchasePayment(app.commands, stock, metadata);
    } else if (isPurchase) {
      const order = parseFormFields(purchaseOrderBody, form.fields);
      purpose = 'product_purchase';
      const purchase = {
        memberId: member.id,
        amountNaira: body.amount,
        description: body.description || 'Product repurchase',
        order: {
          pickupType: order.pickup_type,
          lines: order.products,
          totalPriceKobo: order.total_price === null ? null : Math.round(order.total_price * 100),
          totalPoints: order.total_points,
          totalQuantity: order.total_quantity,
        },
      };
      start = (method, receiptPath) => startProductPurchasePayment(app.commands, { ...purchase, method, receiptPath }, metadata);
    } else {
      const packagePurpose = body.is_upgrade ? 'upgrade' : 'registration';
      purpose = packagePurpose;
      const description = body.description || (packagePurpose === 'upgrade' ? 'Package upgrade' : 'Registration package payment');
      const payment = { memberId: member.id, purpose: packagePurpose, targetPackageId: body.meta_data, amountNaira: body.amount, description } as const;
      start = (method, receiptPath) => startPackagePayment(app.commands, { ...payment, method, receiptPath }, metadata);
    }
    const answer = (started: Started) => ({ payment_id: started.paymentId, amount: koboToNaira(started.amountDueKobo), ...(started.purchaseId ? { purchase_id: started.purchaseId } : {}) });

    if (options.fromWallet) {
      const started = await start('wallet', null);
      return { success: true, message: paymentMessages.walletPaid, data: answer(started) };
    }

    if (body.payment_type === 'pop') {
      const file = RECEIPT_FIELDS.map((name) => form.files[name]).find(Boolean) ?? Object.values(form.files)[0];
      if (!file) throw new RuleViolation(uploadMessages.required, 'payment_receipt');
      const receiptPath = await storeImage(app.config.UPLOAD_DIR, 'receipts', file, 'payment_receipt');
      try {
        const started = await start('pop', receiptPath);
        return { success: true, message: paymentMessages.receiptUploaded, data: answer(started) };
      } catch (error) {
        // A refused payment keeps no file.
        await rm(path.resolve(app.config.UPLOAD_DIR, receiptPath.replace(/^storage\//, '')), { force: true });
        throw error;
      }
    }

    const started = await start('payment_gateway', null);
    try {
      const opened = await app.gateway.initializeTransaction({
        email: member.email,
        amountKobo: started.amountDueKobo,
        reference: started.reference!,
        callbackUrl: `${app.config.publicUrl}/payment-complete`,
        metadata: { payment_id: started.paymentId, member_id: member.id, purpose, purchase_id: started.purchaseId ?? null, cancel_action: `${app.config.publicUrl}/payment-complete?cancelled=1` },
      });
      const data = initiatedGatewayPayment.parse({ authorization_url: opened.authorizationUrl, access_code: opened.accessCode, reference: opened.reference, ...answer(started) });
      return { success: true, message: 'Payment initiated successfully', data };
    } catch (error) {
      if (error instanceof PaystackError || error instanceof TypeError || (error as Error).name === 'TimeoutError') {
        request.log.warn({ err: error }, 'payment provider refused or unreachable');
        throw new DomainError('The payment provider could not be reached. Please try again in a moment.');
      }
      throw error;
    }
  }

  // Multipart or JSON: the body is read in the handler, so no body schema here.
  app.post('/payments/initiate', { schema: { tags: ['payments'], consumes: ['application/json', 'multipart/form-data'] } }, (request) => initiate(request));
  app.post('/payments/initiate-payment', { schema: { tags: ['payments'], consumes: ['application/json', 'multipart/form-data'] } }, (request) => initiate(request));
  // Same payload as initiate (seed 000 §7): the package is paid at once from the wallet's balance.
  app.patch('/withdrawals/pay-with-wallet', { schema: { tags: ['payments'] } }, (request) => initiate(request, { fromWallet: true }));

  app.post(
    '/payments/verify',
    { preHandler: requireSignedIn, schema: { tags: ['payments'], body: verifyPaymentBody, response: { 200: envelope(verifiedPayment) } } },
    async (request) => {
      const account = request.account!;
      const owner = await app.db.selectFrom('package_payments').select('member_id').where('reference', '=', request.body.reference).executeTakeFirst();
      if (owner && account.kind === 'member' && owner.member_id !== account.id) throw new Forbidden('You may only verify your own payments.');
      let settled: Awaited<ReturnType<typeof settleGatewayPayment>>;
      try {
        settled = await settleGatewayPayment(app.commands, app.gateway, request.body.reference, 'verify', requestMetadata(request, app.clock()));
      } catch (error) {
        if (error instanceof PaystackError || error instanceof TypeError) {
          request.log.warn({ err: error }, 'could not verify with the payment provider');
          return { success: false, message: paymentMessages.notVerified, data: { success: false, status: 'unverified', payment_id: null } };
        }
        throw error;
      }
      if (!settled) return { success: false, message: paymentMessages.notVerified, data: { success: false, status: 'unknown', payment_id: null } };
      const ok = settled.status === 'approved';
      const message = ok ? paymentMessages.verified : settled.status === 'amount_mismatch' ? paymentMessages.mismatch : paymentMessages.notVerified;
      return { success: ok, message, data: { success: ok, status: settled.status, payment_id: settled.paymentId } };
    },
  );

  // The provider's webhook needs the exact bytes it signed, so this scope keeps JSON bodies raw.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/payments/webhook', { schema: { tags: ['payments'], hide: true } }, async (request, reply) => {
      const raw = request.body as Buffer;
      const signature = request.headers['x-paystack-signature'];
      if (!Buffer.isBuffer(raw) || !app.gateway.verifyWebhookSignature(raw, typeof signature === 'string' ? signature : undefined)) {
        return reply.status(401).send({ success: false, message: 'Invalid signature.' });
      }
      let event: { event?: string; data?: { reference?: string } };
      try {
        event = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply.status(400).send({ success: false, message: 'The request body is not valid JSON.' });
      }
      if (event.event === 'charge.success' && typeof event.data?.reference === 'string') {
        await settleGatewayPayment(app.commands, app.gateway, event.data.reference, 'webhook', requestMetadata(request, app.clock(), { type: 'system', id: 'paystack-webhook' }));
      }
      if (isTransferWebhook(event.event) && event.data) {
        await applyTransferWebhook(app.commands, event.event, event.data, requestMetadata(request, app.clock(), { type: 'system', id: 'paystack-webhook' }));
      }
      return { success: true, message: 'Received', data: null };
    });
  });

  app.get(
    '/payments/pending-package-payment-approvals',
    { preHandler: requireAdmin('read'), schema: { tags: ['payments'], querystring: listQuery, response: { 200: envelope(listOrCount) } } },
    async (request) => {
      if (request.query.count !== undefined) return { success: true, message: 'Pending package payment approvals', data: await countPayments(app.db, 'awaiting-decision') };
      return { success: true, message: 'Pending package payment approvals', data: await pagePayments(app.db, 'awaiting-decision', request.query.page) };
    },
  );

  app.get(
    '/payments/package-payment-history',
    { preHandler: requireAdmin('read'), schema: { tags: ['payments'], querystring: listQuery, response: { 200: envelope(listOrCount) } } },
    async (request) => {
      if (request.query.count !== undefined) return { success: true, message: 'Package payment history', data: await countPayments(app.db, 'upload-history') };
      return { success: true, message: 'Package payment history', data: await pagePayments(app.db, 'upload-history', request.query.page) };
    },
  );

  async function viewPayment(request: FastifyRequest<{ Params: { id: string } }>) {
    const account = await authenticate(request);
    const payment = await findPayment(app.db, request.params.id);
    if (!payment) throw new NotFound('Payment not found.');
    if (account.kind === 'member' && payment.member_uuid !== account.id) throw new Forbidden('You may only see your own payments.');
    return { success: true, message: 'Package payment', data: payment };
  }
  const viewSchema = { tags: ['payments'], params: paymentParams, response: { 200: envelope(packagePayment) } };
  app.get('/payments/package-payments/:id', { schema: viewSchema }, viewPayment);
  // Seed 002 lists the view among its PATCH calls: the existing client may send either.
  app.patch('/payments/package-payments/:id', { schema: viewSchema }, viewPayment);

  for (const [action, decision, message] of [
    ['approve', 'approve', paymentMessages.approved],
    ['disapprove', 'decline', paymentMessages.declined],
  ] as const) {
    app.patch(
      `/payments/package-payments/:id/${action}`,
      { preHandler: requireAdmin('write'), schema: { tags: ['payments'], params: paymentParams, body: decisionBody, response: { 200: envelope(packagePayment) } } },
      async (request) => {
        const reason = request.body?.reason?.trim() || 'Declined by an administrator.';
        await decideByAdmin(app.commands, request.params.id, decision === 'approve' ? { type: 'approve' } : { type: 'decline', reason }, requestMetadata(request, app.clock()));
        return { success: true, message, data: (await findPayment(app.db, request.params.id))! };
      },
    );
  }

  app.get(
    '/payments/:id/user-upgrade-history',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['payments'], params: memberParams, querystring: listQuery, response: { 200: envelope(pagedPayments) } } },
    async (request) => ({ success: true, message: 'Upgrade history', data: await pagePayments(app.db, { memberId: request.params.id, purpose: 'upgrade' }, request.query.page) }),
  );

  app.get(
    '/users/:id/package-payments',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['payments'], params: memberParams, querystring: listQuery, response: { 200: envelope(pagedPayments) } } },
    async (request) => ({ success: true, message: 'Package payments', data: await pagePayments(app.db, { memberId: request.params.id }, request.query.page) }),
  );

  app.get(
    '/users/:id/package-difference',
    {
      preHandler: requireSelfOrAdmin('id'),
      schema: {
        tags: ['payments'],
        params: memberParams,
        querystring: z.object({ package_id: idField('The package id must be a whole number.').optional(), id: idField('The id must be a whole number.').optional(), is_upgrade_pickup: z.string().max(10).optional() }),
        response: { 200: envelope(packageDifferenceShape.nullable()) },
      },
    },
    async (request) => {
      const member = await findMember(app.db, request.params.id);
      if (!member) throw new NotFound('Member not found.');
      const upgradePickup = ['1', 'true'].includes(request.query.is_upgrade_pickup ?? '');
      const targetPackageId = request.query.package_id ?? request.query.id ?? null;
      if (!upgradePickup && !targetPackageId) throw new RuleViolation('Select a package for upgrade', 'package_id');
      const difference = await packageDifference(app.db, member, { targetPackageId, upgradePickup });
      if (!difference && !upgradePickup) throw new RuleViolation('You can only upgrade to a package higher than your current one.', 'package_id');
      return { success: true, message: 'Package difference', data: difference };
    },
  );

  /** The company's balance at the payment provider (seed 002 "Withdrawal settings"), in naira. */
  app.get('/payments/provider-wallet-balance', { preHandler: requireAdmin('read'), schema: { tags: ['payments'] } }, async (request) => {
    try {
      const balances = await app.gateway.balance();
      const naira = balances.find((b) => b.currency === 'NGN') ?? { balanceKobo: 0 };
      return { success: true, message: 'Provider wallet balance', data: { available_balance: koboToNaira(naira.balanceKobo), currency: 'NGN' } };
    } catch (error) {
      if (error instanceof PaystackError) {
        request.log.warn({ err: error }, 'could not read the provider balance');
        throw new DomainError('The payment provider could not be reached. Please try again in a moment.');
      }
      throw error;
    }
  });
};
