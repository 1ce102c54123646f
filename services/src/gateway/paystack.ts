/**
 * The card gateway: a typed client for the parts of Paystack's HTTP API the portal uses (pay-in,
 * banks, account names, payouts, balance), over global fetch. Not an SDK: the SDKs hard-code
 * https://api.paystack.co, and development and tests point this at infra's stand-in.
 * Contract notes: /work/shared/design/reference/paystack-and-mail.md §0–§4.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export class PaystackError extends Error {
  /** The HTTP status the gateway answered with; 0 when no answer came (timeout, network). */
  httpStatus: number;
  code?: string;
  type?: string;
  nextStep?: string;
  constructor(message: string, details: { httpStatus: number; code?: string; type?: string; nextStep?: string; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.name = 'PaystackError';
    this.httpStatus = details.httpStatus;
    this.code = details.code;
    this.type = details.type;
    this.nextStep = details.nextStep;
  }
}

export type GatewayTransaction = {
  reference: string;
  status: 'success' | 'failed' | 'abandoned' | 'ongoing' | 'pending' | 'processing' | 'queued' | 'reversed';
  amountKobo: number;
  currency: string;
  paidAt: string | null;
  channel: string | null;
  metadata: unknown;
  gatewayResponse: string | null;
};

export type GatewayTransfer = { reference: string; transferCode: string; status: string; amountKobo: number; reason: string | null };

export type PaystackClient = {
  initializeTransaction(input: {
    email: string;
    amountKobo: number;
    reference: string;
    callbackUrl?: string;
    metadata?: Record<string, unknown>;
  }): Promise<{ authorizationUrl: string; accessCode: string; reference: string }>;
  /** null when the gateway does not know the reference (400 or 404 with status false). */
  verifyTransaction(reference: string): Promise<GatewayTransaction | null>;
  /** HMAC-SHA512 of the raw body with the secret key, hex, compared in constant time. */
  verifyWebhookSignature(rawBody: Buffer | string, signature: string | undefined): boolean;
  listBanks(): Promise<Array<{ name: string; code: string; slug: string }>>;
  /** Throws PaystackError (e.g. 422 "Could not resolve account name...") when the pair does not resolve. */
  resolveAccount(accountNumber: string, bankCode: string): Promise<{ accountNumber: string; accountName: string }>;
  balance(): Promise<Array<{ currency: string; balanceKobo: number }>>;
  createTransferRecipient(input: { name: string; accountNumber: string; bankCode: string }): Promise<{ recipientCode: string }>;
  initiateTransfer(input: { amountKobo: number; recipientCode: string; reference: string; reason: string }): Promise<GatewayTransfer>;
  verifyTransfer(reference: string): Promise<GatewayTransfer | null>;
};

// Samples send amounts as integers and, now and then, as digit strings.
const kobo = z.union([z.number().int(), z.string().regex(/^-?\d+$/).transform(Number)]);

const transactionData = z.object({
  reference: z.string(),
  status: z.enum(['success', 'failed', 'abandoned', 'ongoing', 'pending', 'processing', 'queued', 'reversed']),
  amount: kobo,
  currency: z.string(),
  paid_at: z.string().nullish(),
  paidAt: z.string().nullish(),
  channel: z.string().nullish(),
  metadata: z.unknown(),
  gateway_response: z.string().nullish(),
});

const transferData = z.object({
  reference: z.string(),
  transfer_code: z.string(),
  status: z.string(),
  amount: kobo,
  reason: z.string().nullish(),
});

const initializeData = z.object({ authorization_url: z.string(), access_code: z.string(), reference: z.string() });
const bankList = z.array(z.object({ name: z.string(), code: z.string(), slug: z.string() }));
const cursorMeta = z.object({ next: z.string().nullish() }).nullish();
const resolvedAccount = z.object({ account_number: z.string(), account_name: z.string() });
const balances = z.array(z.object({ currency: z.string(), balance: kobo }));
const recipient = z.object({ recipient_code: z.string() });

const errorBody = z.object({
  message: z.string().optional(),
  code: z.string().optional(),
  type: z.string().optional(),
  meta: z.object({ nextStep: z.string().optional() }).nullish(),
});

/** A 429 waits at most this long for the window to reset before the one retry; longer windows throw at once. */
const MAX_RATE_LIMIT_WAIT_MS = 30_000;
const MAX_BANK_PAGES = 50;

export function createPaystackClient(options: { baseUrl: string; secretKey: string; timeoutMs?: number }): PaystackClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function send(method: 'GET' | 'POST', path: string, body: unknown): Promise<Response> {
    try {
      return await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new PaystackError(timedOut ? `The payment gateway did not answer within ${timeoutMs} ms` : 'The payment gateway could not be reached', {
        httpStatus: 0,
        code: timedOut ? 'timeout' : 'network_error',
        cause: error,
      });
    }
  }

  /** One call: the envelope checked, `data` (and `meta`) parsed with `schema`. */
  async function call<T>(method: 'GET' | 'POST', path: string, schema: z.ZodType<T>, body?: unknown): Promise<{ data: T; meta: unknown }> {
    let response = await send(method, path, body);
    if (response.status === 429) {
      const waitMs = Number(response.headers.get('x-ratelimit-reset') ?? '1') * 1000;
      if (Number.isFinite(waitMs) && waitMs <= MAX_RATE_LIMIT_WAIT_MS) {
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs)));
        response = await send(method, path, body);
      }
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new PaystackError(`The payment gateway answered ${response.status} with a body that is not JSON`, { httpStatus: response.status, code: 'unexpected_response' });
    }
    const envelope = json as { status?: unknown; data?: unknown; meta?: unknown };
    if (!response.ok || envelope?.status !== true) {
      const details = errorBody.safeParse(json);
      const fields = details.success ? details.data : {};
      throw new PaystackError(fields.message ?? `The payment gateway answered ${response.status}`, {
        httpStatus: response.status,
        code: fields.code,
        type: fields.type,
        nextStep: fields.meta?.nextStep,
      });
    }
    const parsed = schema.safeParse(envelope.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new PaystackError(`Unexpected answer from the payment gateway (${issue?.path.join('.') || 'data'}: ${issue?.message})`, {
        httpStatus: response.status,
        code: 'unexpected_response',
      });
    }
    return { data: parsed.data, meta: envelope.meta };
  }

  /** The "not found" answers of the verify endpoints become null; everything else stays an error. */
  async function orNullWhenUnknown<T>(work: Promise<T>): Promise<T | null> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof PaystackError && (error.httpStatus === 400 || error.httpStatus === 404)) return null;
      throw error;
    }
  }

  const toTransfer = (data: z.infer<typeof transferData>): GatewayTransfer => ({
    reference: data.reference,
    transferCode: data.transfer_code,
    status: data.status,
    amountKobo: data.amount,
    reason: data.reason ?? null,
  });

  return {
    async initializeTransaction(input) {
      const { data } = await call('POST', '/transaction/initialize', initializeData, {
        email: input.email,
        amount: input.amountKobo,
        currency: 'NGN',
        reference: input.reference,
        ...(input.callbackUrl ? { callback_url: input.callbackUrl } : {}),
        ...(input.metadata ? { metadata: input.metadata } : {}),
      });
      return { authorizationUrl: data.authorization_url, accessCode: data.access_code, reference: data.reference };
    },

    async verifyTransaction(reference) {
      const result = await orNullWhenUnknown(call('GET', `/transaction/verify/${encodeURIComponent(reference)}`, transactionData));
      if (!result) return null;
      const data = result.data;
      return {
        reference: data.reference,
        status: data.status,
        amountKobo: data.amount,
        currency: data.currency,
        paidAt: data.paid_at ?? data.paidAt ?? null,
        channel: data.channel ?? null,
        metadata: normalizeMetadata(data.metadata),
        gatewayResponse: data.gateway_response ?? null,
      };
    },

    verifyWebhookSignature(rawBody, signature) {
      if (typeof signature !== 'string') return false;
      const expected = Buffer.from(createHmac('sha512', options.secretKey).update(rawBody).digest('hex'));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    async listBanks() {
      const banks: Array<{ name: string; code: string; slug: string }> = [];
      let next: string | null | undefined = null;
      for (let page = 0; page < MAX_BANK_PAGES; page++) {
        const query = new URLSearchParams({ currency: 'NGN', use_cursor: 'true', perPage: '100', ...(next ? { next } : {}) });
        const { data, meta } = await call('GET', `/bank?${query}`, bankList);
        banks.push(...data.map(({ name, code, slug }) => ({ name, code, slug })));
        const parsedMeta = cursorMeta.safeParse(meta);
        next = parsedMeta.success ? parsedMeta.data?.next : null;
        if (!next) break;
      }
      return banks;
    },

    async resolveAccount(accountNumber, bankCode) {
      const query = new URLSearchParams({ account_number: accountNumber, bank_code: bankCode });
      const { data } = await call('GET', `/bank/resolve?${query}`, resolvedAccount);
      return { accountNumber: data.account_number, accountName: data.account_name };
    },

    async balance() {
      const { data } = await call('GET', '/balance', balances);
      return data.map((entry) => ({ currency: entry.currency, balanceKobo: entry.balance }));
    },

    async createTransferRecipient(input) {
      const { data } = await call('POST', '/transferrecipient', recipient, {
        type: 'nuban',
        name: input.name,
        account_number: input.accountNumber,
        bank_code: input.bankCode,
        currency: 'NGN',
      });
      return { recipientCode: data.recipient_code };
    },

    async initiateTransfer(input) {
      const { data } = await call('POST', '/transfer', transferData, {
        source: 'balance',
        amount: input.amountKobo,
        recipient: input.recipientCode,
        reference: input.reference,
        reason: input.reason,
        currency: 'NGN',
      });
      return toTransfer(data);
    },

    async verifyTransfer(reference) {
      const result = await orNullWhenUnknown(call('GET', `/transfer/verify/${encodeURIComponent(reference)}`, transferData));
      return result ? toTransfer(result.data) : null;
    },
  };
}

/**
 * Paystack echoes metadata as it was sent, as a JSON string, or as "" / 0 / null when none was
 * sent: an object, a non-JSON string, or null comes out.
 */
function normalizeMetadata(value: unknown): unknown {
  if (value === '' || value === 0 || value === null || value === undefined) return null;
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null ? parsed : value;
  } catch {
    return value;
  }
}
