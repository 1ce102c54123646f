/**
 * A local stand-in for Paystack's HTTP API, for development and tests: the same paths, envelopes,
 * error bodies and signed webhooks as the contract in design/reference/paystack-and-mail.md §8,
 * with state in memory. Its checkout page (GET /checkout/:access_code) replaces Paystack's
 * hosted page: Pay marks the transaction paid, sends `charge.success`, and returns to callback_url.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { checkoutPage, resultPage } from './paystack-checkout-page';
import { BANKS, accountName, bankByCode } from './paystack-standin-banks';

export type WebhookTarget = string | ((rawBody: string, signature: string) => Promise<void>) | null;
export type TransferMode = 'success' | 'pending' | 'fail' | 'reverse';

export type StandinTransaction = {
  id: number;
  reference: string;
  accessCode: string;
  email: string;
  amountKobo: number;
  status: 'abandoned' | 'failed' | 'success';
  gatewayResponse: string;
  /** As sent at initialize (a JSON string is parsed); null when none was sent. */
  metadata: unknown;
  callbackUrl: string | null;
  createdAt: string;
  paidAt: string | null;
};

export type StandinTransfer = {
  id: number;
  reference: string;
  transferCode: string;
  recipientCode: string;
  amountKobo: number;
  reason: string | null;
  status: 'success' | 'pending' | 'failed' | 'reversed';
  createdAt: string;
  updatedAt: string;
};

export type StandinWebhook = { event: string; reference: string; rawBody: string; signature: string; attempts: number; delivered: boolean };

export type PaystackStandin = {
  url: string;
  port: number;
  secretKey: string;
  setWebhookTarget(target: WebhookTarget): void;
  transactions(): StandinTransaction[];
  transfers(): StandinTransfer[];
  /** Every webhook sent, oldest first, with its exact body and signature. */
  webhooks(): StandinWebhook[];
  balanceKobo(): number;
  setBalanceKobo(kobo: number): void;
  /** How POST /transfer behaves from now on: see startPaystackStandin. */
  setTransferMode(mode: TransferMode): void;
  /** Verify of an unknown reference answers 400 (what live Paystack does, the default) or 404 (what its spec says). */
  setUnknownTransactionStatus(httpStatus: 400 | 404): void;
  /** What the checkout page's buttons do, for tests that skip the page; resolves once the webhook is delivered. */
  completeCheckout(accessCodeOrReference: string, outcome: 'success' | 'failed' | 'abandoned', options?: { chargedAmountKobo?: number }): Promise<void>;
  /** Concludes a pending transfer and sends its webhook (failed/reversed return the money). */
  settleTransfer(reference: string, outcome: 'success' | 'failed' | 'reversed'): Promise<void>;
  /** Sends an already-sent webhook again, byte for byte (Paystack retries and duplicates). Default: the last one. */
  redeliverWebhook(index?: number): Promise<void>;
  /** Resolves when no webhook delivery is in flight. */
  whenIdle(): Promise<void>;
  close(): Promise<void>;
};

const DEFAULT_SECRET_KEY = 'sk_test_local_standin_secret';
const RETRY_DELAYS_MS = [200, 500, 1000];
const MIN_AMOUNT_KOBO = 5_000;
const MAX_AMOUNT_KOBO = 1_000_000_000;
const MISSING = { code: 'missing_params', nextStep: 'Provide all required params' };
const INVALID = { code: 'invalid_params', nextStep: "Ensure that the value(s) you're passing are valid." };
const UNRESOLVED = {
  code: 'invalid_bank_code',
  nextStep: "Ensure that you're passing the correct bank code. Use the List Banks Endpoint to get the list of all available banks and their corresponding bank codes",
};
const UNRESOLVED_MESSAGE = 'Could not resolve account name. Check parameters or try again.';

/**
 * Starts the stand-in (port 0 = a free port). Transfer modes: 'success' answers success and sends
 * `transfer.success` (Paystack test mode); 'pending' answers pending and waits for settleTransfer;
 * 'fail' / 'reverse' answer pending, then send `transfer.failed` / `transfer.reversed` and return
 * the money to the balance.
 */
export async function startPaystackStandin(
  options: { port?: number; host?: string; secretKey?: string; webhookTarget?: WebhookTarget; publicUrl?: string; log?: (message: string) => void } = {},
): Promise<PaystackStandin> {
  const secretKey = options.secretKey ?? DEFAULT_SECRET_KEY;
  const log = options.log ?? ((message: string) => console.warn(`[paystack-standin] ${message}`));
  let webhookTarget = options.webhookTarget ?? null;
  let url = ''; // known once listening
  let balanceKobo = 1_000_000_000;
  let transferMode: TransferMode = 'success';
  let unknownTransactionStatus: 400 | 404 = 400;
  let nextId = 4_099_260_000;
  const transactions = new Map<string, StandinTransaction>();
  const referenceByAccessCode = new Map<string, string>();
  const customers = new Map<string, { id: number; code: string }>();
  const recipients = new Map<string, { id: number; code: string; name: string; accountNumber: string; accountName: string; bankCode: string; createdAt: string }>();
  const transfers = new Map<string, StandinTransfer>();
  const webhooks: StandinWebhook[] = [];
  const inFlight = new Set<Promise<void>>();
  const closing = new AbortController();
  const now = () => new Date().toISOString();

  // ---------------------------------------------------------------- webhooks
  function track(work: Promise<void>): Promise<void> {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  }

  async function deliver(webhook: StandinWebhook): Promise<void> {
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0) await sleep(RETRY_DELAYS_MS[attempt - 1], undefined, { signal: closing.signal }).catch(() => {});
      const target = webhookTarget;
      if (closing.signal.aborted || !target) return;
      webhook.attempts += 1;
      try {
        if (typeof target === 'function') await target(webhook.rawBody, webhook.signature);
        else {
          const response = await fetch(target, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-paystack-signature': webhook.signature },
            body: webhook.rawBody,
            signal: AbortSignal.timeout(10_000),
          });
          await response.body?.cancel();
          if (!response.ok) throw new Error(`${target} answered ${response.status}`);
        }
        webhook.delivered = true;
        return;
      } catch (error) {
        log(`webhook ${webhook.event} ${webhook.reference}, attempt ${webhook.attempts}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  function sendWebhook(event: string, reference: string, data: unknown): Promise<void> {
    const rawBody = JSON.stringify({ event, data });
    const webhook = { event, reference, rawBody, signature: createHmac('sha512', secretKey).update(rawBody).digest('hex'), attempts: 0, delivered: false };
    webhooks.push(webhook);
    return track(deliver(webhook));
  }

  // ---------------------------------------------------------------- pay-in
  function customerOf(email: string) {
    const known = customers.get(email) ?? { id: 181_873_746 + customers.size, code: `CUS_${randomCode(15)}` };
    customers.set(email, known);
    return known;
  }

  function transactionJson(t: StandinTransaction) {
    const customer = customerOf(t.email);
    const paid = t.status === 'success';
    return {
      id: t.id, domain: 'test', status: t.status, reference: t.reference, receipt_number: null, amount: t.amountKobo,
      message: null, gateway_response: t.gatewayResponse, paid_at: t.paidAt, created_at: t.createdAt,
      channel: paid ? 'card' : null, currency: 'NGN', ip_address: '127.0.0.1', metadata: t.metadata ?? '',
      log: null, fees: paid ? Math.min(Math.floor(t.amountKobo * 0.015) + (t.amountKobo >= 250_000 ? 10_000 : 0), 200_000) : null,
      fees_split: null,
      authorization: paid
        ? { authorization_code: `AUTH_${t.accessCode.slice(0, 10)}`, bin: '408408', last4: '4081', exp_month: '12', exp_year: '2030', channel: 'card',
            card_type: 'visa ', bank: 'TEST BANK', country_code: 'NG', brand: 'visa', reusable: true, signature: `SIG_${t.accessCode}`, account_name: null }
        : {},
      customer: { id: customer.id, first_name: null, last_name: null, email: t.email, customer_code: customer.code, phone: null, metadata: null,
                  risk_action: 'default', international_format_phone: null },
      plan: null, split: {}, order_id: null, paidAt: t.paidAt, createdAt: t.createdAt, requested_amount: t.amountKobo,
      pos_transaction_data: null, source: null, fees_breakdown: null, connect: null, transaction_date: t.createdAt, plan_object: {}, subaccount: {},
    };
  }

  function findTransaction(accessCodeOrReference: string): StandinTransaction | undefined {
    return transactions.get(referenceByAccessCode.get(accessCodeOrReference) ?? accessCodeOrReference);
  }

  async function completeCheckout(accessCodeOrReference: string, outcome: 'success' | 'failed' | 'abandoned', options: { chargedAmountKobo?: number } = {}): Promise<void> {
    const transaction = findTransaction(accessCodeOrReference);
    if (!transaction) throw new Error(`No transaction with access code or reference ${accessCodeOrReference}`);
    if (transaction.status === 'success') throw new Error(`Transaction ${transaction.reference} is already paid`);
    transaction.status = outcome;
    transaction.gatewayResponse = { success: 'Successful', failed: 'Declined', abandoned: 'The transaction was not completed' }[outcome];
    if (outcome !== 'success') return;
    // A charge of another amount than initialized happens when fees are passed to the customer.
    if (options.chargedAmountKobo !== undefined) transaction.amountKobo = options.chargedAmountKobo;
    transaction.paidAt = now();
    await sendWebhook('charge.success', transaction.reference, transactionJson(transaction));
  }

  // ---------------------------------------------------------------- payouts
  function recipientJson(code: string) {
    const r = [...recipients.values()].find((candidate) => candidate.code === code)!;
    return {
      active: true, createdAt: r.createdAt, currency: 'NGN', description: '', domain: 'test', email: null, id: r.id, integration: 463_433,
      metadata: null, name: r.name, recipient_code: r.code, type: 'nuban', updatedAt: r.createdAt, is_deleted: false,
      details: { authorization_code: null, account_number: r.accountNumber, account_name: r.accountName, bank_code: r.bankCode, bank_name: bankByCode(r.bankCode)?.name ?? '' },
    };
  }

  function transferJson(t: StandinTransfer) {
    return {
      amount: t.amountKobo, createdAt: t.createdAt, currency: 'NGN', domain: 'test', failures: null, id: t.id, integration: 463_433,
      reason: t.reason, reference: t.reference, source: 'balance', source_details: null, status: t.status, titan_code: null,
      transfer_code: t.transferCode, transferred_at: t.status === 'success' ? t.updatedAt : null, updatedAt: t.updatedAt,
      recipient: recipientJson(t.recipientCode), session: { provider: null, id: null }, fee_charged: 0, gateway_response: null,
    };
  }

  async function settleTransfer(reference: string, outcome: 'success' | 'failed' | 'reversed'): Promise<void> {
    const transfer = transfers.get(reference);
    if (!transfer) throw new Error(`No transfer with reference ${reference}`);
    if (transfer.status !== 'pending') throw new Error(`Transfer ${reference} is already ${transfer.status}`);
    transfer.status = outcome;
    transfer.updatedAt = now();
    if (outcome !== 'success') balanceKobo += transfer.amountKobo;
    await sendWebhook(`transfer.${outcome}`, reference, transferJson(transfer));
  }

  // ---------------------------------------------------------------- HTTP
  const app = Fastify({ logger: false });
  await app.register(formbody);
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) =>
    reply.status(error.statusCode ?? 500).send({ status: false, message: error.message }),
  );
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ status: false, message: `No route ${request.method} ${request.url.split('?')[0]}` }));

  await app.register(async (api: FastifyInstance) => {
    api.addHook('onRequest', async (request, reply) => {
      if (request.headers.authorization !== `Bearer ${secretKey}`) return reply.status(401).send({ status: false, message: 'Invalid key' });
    });

    api.post('/transaction/initialize', async (request, reply) => {
      const body = fields(request.body);
      const email = text(body.email);
      const amount = integer(body.amount);
      const reference = text(body.reference) || randomCode(10);
      const callbackUrl = text(body.callback_url) || null;
      if (!email) return fail(reply, 400, 'Email Address is required', MISSING);
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return fail(reply, 400, 'Invalid Email Address Passed', INVALID);
      if (body.amount === undefined || body.amount === '') return fail(reply, 400, 'Amount is required', MISSING);
      if (amount === null || amount <= 0) return fail(reply, 400, 'You must specify a valid amount', INVALID);
      if (amount < MIN_AMOUNT_KOBO) return fail(reply, 400, 'Amount must be at least NGN 50.00', INVALID);
      if (amount > MAX_AMOUNT_KOBO) return fail(reply, 400, 'Transaction amount limit exceeded', INVALID);
      if ((text(body.currency) || 'NGN') !== 'NGN') return fail(reply, 400, 'Currency not supported by merchant', INVALID);
      // The spec allows only "-", "." and "="; its own examples use "_" too.
      if (!/^[A-Za-z0-9._=-]+$/.test(reference)) return fail(reply, 400, 'Invalid character in transaction reference', INVALID);
      if (callbackUrl && !URL.canParse(callbackUrl)) return fail(reply, 400, 'Invalid callback_url', INVALID);
      if (transactions.has(reference)) {
        return fail(reply, 400, 'Duplicate Transaction Reference', {
          code: 'duplicate_reference',
          nextStep: 'Try and create the Transaction or Charge with a new reference',
          extra: { errorCodeMappingNotFound: false },
        });
      }
      const accessCode = randomCode(15);
      transactions.set(reference, {
        id: nextId++, reference, accessCode, email, amountKobo: amount, status: 'abandoned', gatewayResponse: 'The transaction was not completed',
        metadata: parseMetadata(body.metadata), callbackUrl, createdAt: now(), paidAt: null,
      });
      referenceByAccessCode.set(accessCode, reference);
      return ok(reply, 'Authorization URL created', { authorization_url: `${url}/checkout/${accessCode}`, access_code: accessCode, reference });
    });

    api.get<{ Params: { reference: string } }>('/transaction/verify/:reference', async (request, reply) => {
      const transaction = transactions.get(request.params.reference);
      if (!transaction) return fail(reply, unknownTransactionStatus, unknownTransactionStatus === 400 ? 'Transaction reference not found' : 'Entity not found');
      return ok(reply, 'Verification successful', transactionJson(transaction));
    });

    api.get<{ Querystring: Record<string, string | undefined> }>('/bank', async (request, reply) => {
      const perPage = Math.max(1, integer(request.query.perPage) ?? 50);
      if (request.query.use_cursor === 'true') {
        const start = request.query.next ? Number(Buffer.from(request.query.next, 'base64').toString().replace('bank:', '')) || 0 : 0;
        const end = start + perPage;
        const cursor = (offset: number) => Buffer.from(`bank:${offset}`).toString('base64');
        return ok(reply, 'Banks retrieved', BANKS.slice(start, end), 200, {
          next: end < BANKS.length ? cursor(end) : null, previous: start > 0 ? cursor(Math.max(0, start - perPage)) : null, perPage,
        });
      }
      const page = Math.max(1, integer(request.query.page) ?? 1);
      return ok(reply, 'Banks retrieved', BANKS.slice((page - 1) * perPage, page * perPage), 200, {
        total: BANKS.length, skipped: (page - 1) * perPage, perPage, page, pageCount: Math.ceil(BANKS.length / perPage),
      });
    });

    api.get<{ Querystring: Record<string, string | undefined> }>('/bank/resolve', async (request, reply) => {
      const accountNumber = request.query.account_number ?? '';
      const bankCode = request.query.bank_code ?? '';
      const bank = bankByCode(bankCode);
      if (!bank) return fail(reply, 400, `Unknown bank code: ${bankCode}`, INVALID);
      if (!/^\d{10}$/.test(accountNumber)) return fail(reply, 422, UNRESOLVED_MESSAGE, UNRESOLVED);
      return ok(reply, 'Account number resolved', { account_number: accountNumber, account_name: accountName(accountNumber, bankCode), bank_id: bank.id });
    });

    api.post('/transferrecipient', async (request, reply) => {
      const body = fields(request.body);
      const [type, name, accountNumber, bankCode] = [text(body.type), text(body.name), text(body.account_number), text(body.bank_code)];
      if (!type || !name || !accountNumber || !bankCode) return fail(reply, 400, 'type, name, account_number and bank_code are required', MISSING);
      if (type !== 'nuban') return fail(reply, 400, 'Only nuban recipients are supported here', INVALID);
      if (!bankByCode(bankCode)) return fail(reply, 400, `Unknown bank code: ${bankCode}`, INVALID);
      if (!/^\d{10}$/.test(accountNumber)) return fail(reply, 422, UNRESOLVED_MESSAGE, UNRESOLVED);
      // "A duplicate account number will lead to the retrieval of the existing record."
      const key = `${bankCode}:${accountNumber}`;
      if (!recipients.has(key)) {
        recipients.set(key, { id: nextId++, code: `RCP_${randomCode(15)}`, name, accountNumber, accountName: accountName(accountNumber, bankCode), bankCode, createdAt: now() });
      }
      return ok(reply, 'Transfer recipient created successfully', recipientJson(recipients.get(key)!.code), 201);
    });

    api.post('/transfer', async (request, reply) => {
      const body = fields(request.body);
      const amount = integer(body.amount);
      const recipientCode = text(body.recipient);
      const reference = text(body.reference) || `trf_${randomCode(20)}`;
      if ((text(body.source) || 'balance') !== 'balance') return fail(reply, 400, 'Invalid transfer source', INVALID);
      if (amount === null || amount <= 0) return fail(reply, 400, 'Invalid amount passed.', INVALID);
      if (![...recipients.values()].some((r) => r.code === recipientCode)) {
        return fail(reply, 400, 'Recipient specified is invalid', {
          code: 'invalid_transfer_recipient',
          nextStep: 'Provide a valid recipient. Ensure you are passing the recipient code in the recipient param',
        });
      }
      if (!/^[a-z0-9_-]+$/.test(reference)) return fail(reply, 400, 'Your reference contains illegal special characters', INVALID);
      if (reference.length < 16 || reference.length > 50) return fail(reply, 400, 'Reference should be between 16 and 50 characters long', INVALID);
      if (transfers.has(reference)) return fail(reply, 400, 'Please provide a unique reference. Reference already exists on a transfer', INVALID);
      if (amount > balanceKobo) return fail(reply, 400, 'Your balance is not enough to fulfill this request', { code: 'insufficient_balance', nextStep: 'Top up your balance and try again' });
      balanceKobo -= amount;
      const at = now();
      const mode = transferMode;
      const transfer: StandinTransfer = {
        id: nextId++, reference, transferCode: `TRF_${randomCode(16)}`, recipientCode: recipientCode, amountKobo: amount,
        reason: text(body.reason) || null, status: mode === 'success' ? 'success' : 'pending', createdAt: at, updatedAt: at,
      };
      transfers.set(reference, transfer);
      // Like Paystack, the outcome's webhook follows the answer.
      reply.raw.once('finish', () => {
        if (mode === 'success') void sendWebhook('transfer.success', reference, transferJson(transfer));
        if (mode === 'fail' || mode === 'reverse') {
          settleTransfer(reference, mode === 'fail' ? 'failed' : 'reversed').catch((error: Error) => log(`settling ${reference}: ${error.message}`));
        }
      });
      const { recipient, session, fee_charged, gateway_response, ...data } = transferJson(transfer);
      return ok(reply, 'Transfer has been queued', { transfersessionid: [], transfertrials: [], ...data, integration: 463_433, request: transfer.id, recipient: recipient.id });
    });

    api.get<{ Params: { reference: string } }>('/transfer/verify/:reference', async (request, reply) => {
      const transfer = transfers.get(request.params.reference);
      if (!transfer) return fail(reply, 404, 'Transfer not found');
      return ok(reply, 'Transfer retrieved', transferJson(transfer));
    });

    api.get('/balance', async (_request, reply) => ok(reply, 'Balances retrieved', [{ currency: 'NGN', balance: balanceKobo }]));
  });

  // The checkout page: no key (the customer's browser opens it), and no frame restrictions so the portal can embed it.
  app.get<{ Params: { accessCode: string } }>('/checkout/:accessCode', async (request, reply) => {
    const transaction = findTransaction(request.params.accessCode);
    reply.type('text/html; charset=utf-8');
    if (!transaction) return reply.status(404).send(resultPage({ title: 'Payment link not found', message: 'This payment link is not valid or has expired.', tone: 'neutral' }));
    if (transaction.status === 'success') return resultPage({ title: 'Already paid', message: 'This payment has already been completed.', tone: 'success' });
    return checkoutPage(transaction);
  });

  app.post<{ Params: { accessCode: string; action: string } }>('/checkout/:accessCode/:action', async (request, reply) => {
    const transaction = findTransaction(request.params.accessCode);
    const action = request.params.action;
    reply.type('text/html; charset=utf-8');
    if (!transaction || !['pay', 'cancel', 'decline'].includes(action)) return reply.status(404).send(resultPage({ title: 'Payment link not found', message: 'This payment link is not valid or has expired.', tone: 'neutral' }));
    if (transaction.status === 'success') return resultPage({ title: 'Already paid', message: 'This payment has already been completed.', tone: 'success' });
    const withReference = (target: string) => {
      const next = new URL(target);
      next.searchParams.set('trxref', transaction.reference);
      next.searchParams.set('reference', transaction.reference);
      return next.toString();
    };
    if (action === 'decline') {
      await completeCheckout(transaction.reference, 'failed');
      return checkoutPage({ ...transaction, error: 'Your card was declined. Try again or use another card.' });
    }
    if (action === 'pay') {
      // The webhook goes first, so the portal has usually recorded the payment when the customer lands back.
      await completeCheckout(transaction.reference, 'success');
      if (transaction.callbackUrl) return reply.redirect(withReference(transaction.callbackUrl), 303);
      return resultPage({ title: 'Payment successful', message: 'Payment successful — you can close this window.', tone: 'success' });
    }
    await completeCheckout(transaction.reference, 'abandoned');
    const cancelAction = (transaction.metadata as { cancel_action?: unknown } | null)?.cancel_action;
    if (typeof cancelAction === 'string' && URL.canParse(cancelAction)) return reply.redirect(cancelAction, 303);
    if (transaction.callbackUrl) return reply.redirect(withReference(transaction.callbackUrl), 303);
    return resultPage({ title: 'Payment cancelled', message: 'Payment cancelled. No money was taken; you can close this window.', tone: 'neutral' });
  });

  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const listenHost = options.host ?? '127.0.0.1';
  url = (options.publicUrl ?? `http://${listenHost === '0.0.0.0' || listenHost === '::' ? '127.0.0.1' : listenHost}:${port}`).replace(/\/+$/, '');

  async function whenIdle(): Promise<void> {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  return {
    url,
    port,
    secretKey,
    setWebhookTarget: (target) => void (webhookTarget = target),
    transactions: () => [...transactions.values()].map((t) => ({ ...t })),
    transfers: () => [...transfers.values()].map((t) => ({ ...t })),
    webhooks: () => webhooks.map((w) => ({ ...w })),
    balanceKobo: () => balanceKobo,
    setBalanceKobo: (kobo) => void (balanceKobo = kobo),
    setTransferMode: (mode) => void (transferMode = mode),
    setUnknownTransactionStatus: (httpStatus) => void (unknownTransactionStatus = httpStatus),
    completeCheckout,
    settleTransfer,
    async redeliverWebhook(index = webhooks.length - 1) {
      const webhook = webhooks[index];
      if (!webhook) throw new Error(`No webhook #${index}`);
      await track(deliver(webhook));
    },
    whenIdle,
    async close() {
      closing.abort(); // no more retries; attempts under way finish
      await whenIdle();
      await app.close();
    },
  };
}

function ok(reply: FastifyReply, message: string, data: unknown, httpStatus = 200, meta?: unknown) {
  return reply.status(httpStatus).send({ status: true, message, data, ...(meta ? { meta } : {}) });
}

function fail(reply: FastifyReply, httpStatus: number, message: string, details?: { code: string; nextStep: string; extra?: Record<string, unknown> }) {
  const type = httpStatus === 400 || httpStatus === 422 ? 'validation_error' : 'api_error';
  return reply.status(httpStatus).send({ status: false, message, ...(details ? { meta: { nextStep: details.nextStep }, type, code: details.code, ...details.extra } : {}) });
}

/** JSON and form bodies alike (Paystack takes both). */
function fields(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

/** Integers, or digit strings (the docs' own samples send "500000"). */
function integer(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : null;
}

function parseMetadata(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value || null;
  }
}

function randomCode(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
}
