import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PaystackError, createPaystackClient } from '../../services/src/gateway/paystack';
import { type PaystackStandin, startPaystackStandin } from './paystack-standin';

type Received = { rawBody: string; signature: string };

let standin: PaystackStandin;
let received: Received[];
let client: ReturnType<typeof createPaystackClient>;
let counter = 0;
const uniqueReference = (prefix: string) => `${prefix}_${Date.now()}_${(counter += 1).toString().padStart(6, '0')}`;
const eventsReceived = () => received.map((r) => JSON.parse(r.rawBody) as { event: string; data: { reference: string; status: string; amount: number } });

beforeAll(async () => {
  standin = await startPaystackStandin({ log: () => {} });
  client = createPaystackClient({ baseUrl: standin.url, secretKey: standin.secretKey });
});
afterAll(() => standin.close());
beforeEach(() => {
  received = [];
  standin.setWebhookTarget(async (rawBody, signature) => void received.push({ rawBody, signature }));
  standin.setTransferMode('success');
  standin.setBalanceKobo(1_000_000_000);
});

/** Submits the checkout page's form over HTTP the way a browser would, with the button's formaction when it has one. */
async function submitCheckout(authorizationUrl: string, button: 'Pay' | 'Cancel' | 'Simulate a declined card') {
  const html = await (await fetch(authorizationUrl)).text();
  const formAction = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const buttonTag = [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].find((m) => m[1]!.startsWith(button))?.[0];
  const action = (buttonTag && /formaction="([^"]+)"/.exec(buttonTag)?.[1]) ?? formAction;
  expect(action, `no form action for ${button}`).toBeTruthy();
  const form = new URLSearchParams([...html.matchAll(/<input name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m): [string, string] => [m[1]!, m[2]!]));
  return fetch(new URL(action!, authorizationUrl), { method: 'POST', body: form, redirect: 'manual' });
}

describe('pay-in through the checkout page', () => {
  it('initializes, pays on the page, returns to the callback with the reference, verifies as paid, and sends a signed charge.success', async () => {
    const reference = uniqueReference('reg');
    const init = await client.initializeTransaction({
      email: 'ada@example.test',
      amountKobo: 2_500_000,
      reference,
      callbackUrl: 'http://portal.test/payments/callback?from=checkout',
      metadata: { purpose: 'registration', member_id: 'M1' },
    });
    expect(init.reference).toBe(reference);
    expect(init.accessCode).toMatch(/^[a-z0-9]{15}$/);
    expect(init.authorizationUrl).toBe(`${standin.url}/checkout/${init.accessCode}`);

    const unpaid = await client.verifyTransaction(reference);
    expect(unpaid).toMatchObject({ status: 'abandoned', paidAt: null });

    const page = await fetch(init.authorizationUrl);
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(page.headers.get('content-security-policy') ?? '').not.toMatch(/frame-ancestors/);
    expect(html).toContain('Pay ₦25,000');
    expect(html).toContain('ada@example.test');
    expect(html).toContain('4084 0840 8408 4081');
    expect(html).toContain('>Cancel</button>');

    const returned = await submitCheckout(init.authorizationUrl, 'Pay');
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toBe(`http://portal.test/payments/callback?from=checkout&trxref=${reference}&reference=${reference}`);

    const paid = await client.verifyTransaction(reference);
    expect(paid).toMatchObject({ reference, status: 'success', amountKobo: 2_500_000, currency: 'NGN', channel: 'card', gatewayResponse: 'Successful' });
    expect(paid?.metadata).toEqual({ purpose: 'registration', member_id: 'M1' });
    expect(Date.parse(paid!.paidAt!)).not.toBeNaN();

    expect(eventsReceived()).toEqual([expect.objectContaining({ event: 'charge.success', data: expect.objectContaining({ reference, status: 'success', amount: 2_500_000 }) })]);
    const [webhook] = received;
    expect(client.verifyWebhookSignature(webhook!.rawBody, webhook!.signature)).toBe(true);
    expect(client.verifyWebhookSignature(webhook!.rawBody.replace('2500000', '9900000'), webhook!.signature)).toBe(false);

    const again = await fetch(init.authorizationUrl).then((r) => r.text());
    expect(again).toContain('This payment has already been completed.');
  });

  it('marks a cancelled checkout abandoned and returns to metadata.cancel_action, without a webhook', async () => {
    const reference = uniqueReference('reg');
    const init = await client.initializeTransaction({
      email: 'bola@example.test',
      amountKobo: 1_000_000,
      reference,
      callbackUrl: 'http://portal.test/payments/callback',
      metadata: { cancel_action: 'http://portal.test/payments/cancelled' },
    });
    const returned = await submitCheckout(init.authorizationUrl, 'Cancel');
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toBe('http://portal.test/payments/cancelled');
    expect(await client.verifyTransaction(reference)).toMatchObject({ status: 'abandoned', paidAt: null, channel: null });
    expect(received).toEqual([]);
  });

  it('shows closing pages when there is no callback, and keeps a declined card on the page as failed', async () => {
    const cancelled = await client.initializeTransaction({ email: 'c@example.test', amountKobo: 500_000, reference: uniqueReference('reg') });
    const cancelPage = await submitCheckout(cancelled.authorizationUrl, 'Cancel');
    expect(cancelPage.status).toBe(200);
    expect(await cancelPage.text()).toContain('Payment cancelled');

    const declined = await client.initializeTransaction({ email: 'd@example.test', amountKobo: 500_000, reference: uniqueReference('reg') });
    const declinedPage = await submitCheckout(declined.authorizationUrl, 'Simulate a declined card');
    expect(await declinedPage.text()).toContain('Your card was declined');
    expect(await client.verifyTransaction(declined.reference)).toMatchObject({ status: 'failed', gatewayResponse: 'Declined' });

    const paidPage = await submitCheckout(declined.authorizationUrl, 'Pay');
    expect(await paidPage.text()).toContain('Payment successful — you can close this window');
    expect(await client.verifyTransaction(declined.reference)).toMatchObject({ status: 'success' });
  });

  it('refuses a duplicate reference with Paystack’s body, and amounts under ₦50', async () => {
    const reference = uniqueReference('reg');
    await client.initializeTransaction({ email: 'e@example.test', amountKobo: 5_000, reference });
    const duplicate = await client.initializeTransaction({ email: 'e@example.test', amountKobo: 5_000, reference }).catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(PaystackError);
    expect(duplicate).toMatchObject({ httpStatus: 400, message: 'Duplicate Transaction Reference', code: 'duplicate_reference', type: 'validation_error' });

    const raw = await fetch(`${standin.url}/transaction/initialize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${standin.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'e@example.test', amount: '5000', reference }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      status: false,
      message: 'Duplicate Transaction Reference',
      meta: { nextStep: 'Try and create the Transaction or Charge with a new reference' },
      type: 'validation_error',
      code: 'duplicate_reference',
      errorCodeMappingNotFound: false,
    });

    await expect(client.initializeTransaction({ email: 'e@example.test', amountKobo: 4_999, reference: uniqueReference('reg') })).rejects.toMatchObject({ httpStatus: 400 });
  });

  it('gives null for a reference the gateway does not know, whether it answers 400 or 404', async () => {
    expect(await client.verifyTransaction('never-initialized')).toBeNull();
    standin.setUnknownTransactionStatus(404);
    try {
      expect(await client.verifyTransaction('never-initialized')).toBeNull();
    } finally {
      standin.setUnknownTransactionStatus(400);
    }
  });

  it('answers 401 "Invalid key" to a wrong secret key', async () => {
    const wrong = createPaystackClient({ baseUrl: standin.url, secretKey: 'sk_test_not_the_key' });
    await expect(wrong.balance()).rejects.toMatchObject({ name: 'PaystackError', httpStatus: 401, message: 'Invalid key' });
    await expect(wrong.verifyTransaction('anything')).rejects.toBeInstanceOf(PaystackError);
  });
});

describe('webhook delivery to a URL', () => {
  it('POSTs the signed JSON body and retries after a failed attempt', async () => {
    const bodies: Array<{ raw: string; signature: string | undefined; contentType: string | undefined }> = [];
    let answers = [500, 200];
    const receiver = http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => (raw += chunk));
      request.on('end', () => {
        bodies.push({ raw, signature: request.headers['x-paystack-signature'] as string | undefined, contentType: request.headers['content-type'] });
        response.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      standin.setWebhookTarget(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/webhook`);
      const init = await client.initializeTransaction({ email: 'f@example.test', amountKobo: 700_000, reference: uniqueReference('reg') });
      await standin.completeCheckout(init.accessCode, 'success');

      expect(bodies).toHaveLength(2);
      expect(bodies[0]!.raw).toBe(bodies[1]!.raw);
      expect(bodies[1]!.contentType).toBe('application/json');
      expect(client.verifyWebhookSignature(bodies[1]!.raw, bodies[1]!.signature)).toBe(true);
      expect(standin.webhooks().at(-1)).toMatchObject({ event: 'charge.success', reference: init.reference, attempts: 2, delivered: true });

      answers = [200];
      await standin.redeliverWebhook();
      expect(bodies).toHaveLength(3);
      expect(bodies[2]!.raw).toBe(bodies[0]!.raw);
    } finally {
      receiver.close();
    }
  });
});

describe('banks and account names', () => {
  it('lists the Nigerian banks with the test bank, page by page with a cursor', async () => {
    const banks = await client.listBanks();
    expect(banks).toContainEqual({ name: 'Test Bank', code: '001', slug: 'test-bank' });
    expect(banks).toContainEqual({ name: 'Guaranty Trust Bank', code: '058', slug: 'guaranty-trust-bank' });
    expect(banks).toHaveLength(18);

    const codes: string[] = [];
    let next: string | null = null;
    do {
      const query: string = new URLSearchParams({ use_cursor: 'true', perPage: '5', ...(next ? { next } : {}) }).toString();
      const page = (await fetch(`${standin.url}/bank?${query}`, { headers: { authorization: `Bearer ${standin.secretKey}` } }).then((r) => r.json())) as {
        data: Array<{ code: string }>;
        meta: { next: string | null; perPage: number };
      };
      expect(page.meta.perPage).toBe(5);
      codes.push(...page.data.map((bank) => bank.code));
      next = page.meta.next;
    } while (next);
    expect(codes).toEqual(banks.map((bank) => bank.code));
  });

  it('resolves account names deterministically and refuses unknown banks and malformed numbers', async () => {
    expect(await client.resolveAccount('0000001234', '001')).toEqual({ accountNumber: '0000001234', accountName: 'TEST ACCOUNT 1234' });
    const first = await client.resolveAccount('0123456780', '058');
    expect(first.accountName).toMatch(/^[A-Z]+ [A-Z]+$/);
    expect(await client.resolveAccount('0123456780', '058')).toEqual(first);

    await expect(client.resolveAccount('0123456780', '999')).rejects.toMatchObject({ httpStatus: 400, message: 'Unknown bank code: 999', code: 'invalid_params' });
    for (const badNumber of ['01234', '01234567AB', '01234567891']) {
      await expect(client.resolveAccount(badNumber, '058')).rejects.toMatchObject({
        httpStatus: 422,
        message: 'Could not resolve account name. Check parameters or try again.',
      });
    }
  });
});

describe('payouts', () => {
  it('gives one recipient code per account and bank', async () => {
    const one = await client.createTransferRecipient({ name: 'Ada Obi', accountNumber: '0011223344', bankCode: '058' });
    const again = await client.createTransferRecipient({ name: 'Ada Obi', accountNumber: '0011223344', bankCode: '058' });
    const otherBank = await client.createTransferRecipient({ name: 'Ada Obi', accountNumber: '0011223344', bankCode: '044' });
    expect(one.recipientCode).toMatch(/^RCP_[a-z0-9]+$/);
    expect(again).toEqual(one);
    expect(otherBank.recipientCode).not.toBe(one.recipientCode);
  });

  it('pays a transfer from the balance, sends transfer.success and verifies it', async () => {
    const { recipientCode } = await client.createTransferRecipient({ name: 'Bayo Ade', accountNumber: '0000005678', bankCode: '001' });
    const reference = uniqueReference('payout');
    const transfer = await client.initiateTransfer({ amountKobo: 1_500_000, recipientCode, reference, reason: 'Weekly bonus' });
    expect(transfer).toMatchObject({ reference, status: 'success', amountKobo: 1_500_000, reason: 'Weekly bonus' });
    expect(transfer.transferCode).toMatch(/^TRF_/);
    expect(await client.balance()).toEqual([{ currency: 'NGN', balanceKobo: 1_000_000_000 - 1_500_000 }]);

    await standin.whenIdle();
    expect(eventsReceived()).toEqual([expect.objectContaining({ event: 'transfer.success', data: expect.objectContaining({ reference, status: 'success' }) })]);
    expect(client.verifyWebhookSignature(received[0]!.rawBody, received[0]!.signature)).toBe(true);
    expect(await client.verifyTransfer(reference)).toEqual(transfer);
    expect(await client.verifyTransfer('payout_never_initiated_0001')).toBeNull();
  });

  it('refuses a transfer over the balance, a reused reference and a malformed reference', async () => {
    const { recipientCode } = await client.createTransferRecipient({ name: 'Chi Eze', accountNumber: '0000009999', bankCode: '001' });
    standin.setBalanceKobo(100_000);
    await expect(client.initiateTransfer({ amountKobo: 100_001, recipientCode, reference: uniqueReference('payout'), reason: 'Bonus' })).rejects.toMatchObject({
      httpStatus: 400,
      message: 'Your balance is not enough to fulfill this request',
    });
    const reference = uniqueReference('payout');
    await client.initiateTransfer({ amountKobo: 40_000, recipientCode, reference, reason: 'Bonus' });
    await expect(client.initiateTransfer({ amountKobo: 40_000, recipientCode, reference, reason: 'Bonus' })).rejects.toMatchObject({
      httpStatus: 400,
      message: 'Please provide a unique reference. Reference already exists on a transfer',
    });
    await expect(client.initiateTransfer({ amountKobo: 1_000, recipientCode, reference: 'short', reason: 'Bonus' })).rejects.toMatchObject({ httpStatus: 400 });
    await expect(client.initiateTransfer({ amountKobo: 1_000, recipientCode, reference: 'Upper_Case_Reference_1', reason: 'Bonus' })).rejects.toMatchObject({ httpStatus: 400 });
    expect(standin.balanceKobo()).toBe(60_000);
  });

  it('returns the money when a pending transfer fails or is reversed, with the matching webhook', async () => {
    const { recipientCode } = await client.createTransferRecipient({ name: 'Dayo Bello', accountNumber: '0000004321', bankCode: '001' });
    for (const [mode, event, status] of [['fail', 'transfer.failed', 'failed'], ['reverse', 'transfer.reversed', 'reversed']] as const) {
      received = [];
      standin.setTransferMode(mode);
      const reference = uniqueReference('payout');
      const transfer = await client.initiateTransfer({ amountKobo: 250_000, recipientCode, reference, reason: 'Bonus' });
      expect(transfer.status).toBe('pending');
      await standin.whenIdle();
      expect(eventsReceived()).toEqual([expect.objectContaining({ event, data: expect.objectContaining({ reference, status }) })]);
      expect(await client.verifyTransfer(reference)).toMatchObject({ status });
      expect(standin.balanceKobo()).toBe(1_000_000_000);
    }
  });

  it('keeps a transfer pending until the test settles it', async () => {
    const { recipientCode } = await client.createTransferRecipient({ name: 'Efe Udoh', accountNumber: '0000008765', bankCode: '001' });
    standin.setTransferMode('pending');
    const reference = uniqueReference('payout');
    expect(await client.initiateTransfer({ amountKobo: 300_000, recipientCode, reference, reason: 'Bonus' })).toMatchObject({ status: 'pending' });
    await standin.whenIdle();
    expect(received).toEqual([]);
    expect(standin.balanceKobo()).toBe(1_000_000_000 - 300_000);

    await standin.settleTransfer(reference, 'success');
    expect(eventsReceived()).toEqual([expect.objectContaining({ event: 'transfer.success', data: expect.objectContaining({ reference, status: 'success' }) })]);
    expect(await client.verifyTransfer(reference)).toMatchObject({ status: 'success' });
    expect(standin.balanceKobo()).toBe(1_000_000_000 - 300_000);
  });
});

describe('client transport', () => {
  async function fakeGateway(handler: http.RequestListener) {
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise((resolve) => server.close(resolve).closeAllConnections()),
    };
  }

  it('waits out one 429 as x-ratelimit-reset says, then gives up on the second', async () => {
    let calls = 0;
    let limitedTimes = 1;
    const gateway = await fakeGateway((_request, response) => {
      calls += 1;
      if (limitedTimes-- > 0) {
        response.writeHead(429, { 'content-type': 'application/json', 'x-ratelimit-reset': '0' });
        return response.end(JSON.stringify({ status: false, message: 'Rate limit exceeded!', type: 'api_error', code: 'rate_limited' }));
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: true, message: 'Balances retrieved', data: [{ currency: 'NGN', balance: '1700000' }] }));
    });
    try {
      const limited = createPaystackClient({ baseUrl: gateway.url, secretKey: 'sk_test_x' });
      expect(await limited.balance()).toEqual([{ currency: 'NGN', balanceKobo: 1_700_000 }]);
      expect(calls).toBe(2);

      calls = 0;
      limitedTimes = 2;
      await expect(limited.balance()).rejects.toMatchObject({ httpStatus: 429, code: 'rate_limited', message: 'Rate limit exceeded!' });
      expect(calls).toBe(2);
    } finally {
      await gateway.close();
    }
  });

  it('turns a gateway that does not answer in time into a PaystackError with no HTTP status', async () => {
    const gateway = await fakeGateway(() => {});
    try {
      const slow = createPaystackClient({ baseUrl: gateway.url, secretKey: 'sk_test_x', timeoutMs: 200 });
      await expect(slow.balance()).rejects.toMatchObject({ name: 'PaystackError', httpStatus: 0, code: 'timeout' });
    } finally {
      await gateway.close();
    }
  });
});
