import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPaystackClient } from './paystack';

const secretKey = 'sk_test_unit_secret';
const client = createPaystackClient({ baseUrl: 'http://127.0.0.1:9', secretKey });
// Whitespace on purpose: the signature covers the bytes as sent, not a re-serialisation.
const rawBody = '{"event":"charge.success", "data":{"reference":"ref-1","amount":2500000}}';
const signature = createHmac('sha512', secretKey).update(rawBody).digest('hex');

describe('verifyWebhookSignature', () => {
  it('accepts the hex HMAC-SHA512 of the raw body keyed with the secret key, as a string or a Buffer', () => {
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(client.verifyWebhookSignature(rawBody, signature)).toBe(true);
    expect(client.verifyWebhookSignature(Buffer.from(rawBody), signature)).toBe(true);
  });

  it('rejects a tampered body, a re-serialised body, another key, a truncated or missing signature', () => {
    expect(client.verifyWebhookSignature(rawBody.replace('2500000', '9500000'), signature)).toBe(false);
    expect(client.verifyWebhookSignature(JSON.stringify(JSON.parse(rawBody)), signature)).toBe(false);
    expect(client.verifyWebhookSignature(rawBody, createHmac('sha512', 'sk_test_other').update(rawBody).digest('hex'))).toBe(false);
    expect(client.verifyWebhookSignature(rawBody, signature.slice(0, 64))).toBe(false);
    expect(client.verifyWebhookSignature(rawBody, '')).toBe(false);
    expect(client.verifyWebhookSignature(rawBody, undefined)).toBe(false);
  });
});
