import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { tinyPng } from '../../test/multipart';

/**
 * The authorization matrix, generated from the OpenAPI description (docs/security.md, V4): every
 * route the api serves is called anonymously, as a member who does not own the ids in the path, and
 * as finance staff (writes). Each must be refused unless it is listed below as open to that caller.
 * A new route without a guard is not in these lists, so it fails here until someone decides who may
 * call it. Guards run before validation (api/input-guard.ts), so an empty body is enough to meet them.
 */
const route = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Anyone, signed in or not. */
const PUBLIC = new Set([
  'POST /api/auth/login',
  'POST /api/auth/admin-login',
  'POST /api/auth/register',
  'POST /api/auth/send-2fa-verification-email',
  'POST /api/auth/authenticate-2fa',
  'POST /api/auth/email-confirmation',
  'POST /api/auth/resend-email-confirmation',
  'POST /api/auth/reset-password-link',
  'POST /api/auth/reset-password',
  'GET /api/packages/all',
  'GET /api/packages/{id}',
  'GET /api/front-page-message',
  // The registration form shows where a recruit will be placed before anyone signs in (docs/placement.md).
  'GET /api/auth/placement-preview',
]);

/** Any signed-in account, on its own behalf (finance staff included: these change only their own session or settle from the provider's answer). */
const OWN_ACCOUNT = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/change-password-link',
  'POST /api/auth/change-password',
  'PUT /api/auth/toggle-admin-2fa',
  'POST /api/payments/verify',
  'POST /api/payments/verify-bank-details',
]);

/** A member, with no other member's id in the path: their own requests and the catalogue they buy from. */
const MEMBER = new Set([
  'GET /api/auth/user',
  'POST /api/payments/initiate',
  'POST /api/payments/initiate-payment',
  'PATCH /api/withdrawals/pay-with-wallet',
  'POST /api/users/create-profile',
  'PUT /api/users/withdrawal-amount',
  'GET /api/payments/banks',
  'GET /api/settings/all',
  'GET /api/products/active',
  'GET /api/products/{id}',
  'GET /api/banks/all',
  'GET /api/banks/{id}/single',
  'GET /api/stockist-packages/all',
  'GET /api/stockist-packages/{id}/single',
  'GET /api/service-providers',
  'GET /api/service-providers/{id}/provider',
  'GET /api/product-services',
  'GET /api/product-services/service',
  'GET /api/product-services/{id}/service',
  'GET /api/ranks/all',
  'GET /api/ranks/{id}',
  'GET /api/ranks/current-rank-badge/{id}',
  'GET /api/incentives/all',
  'GET /api/incentives/{id}',
  // The caller's own figures and records, no id in the path.
  'GET /api/bonuses/matching-status',
  'POST /api/stockists/create',
  'POST /api/product-purchases/order-code',
  // Approved stockists to collect from: public listing for members.
  'GET /api/stockists/all',
  'GET /api/stockists/search',
]);

/** Reads sent with a write verb (seed 002 views a payment with PATCH): finance staff read them like any admin. */
const READS_BY_WRITE_VERB = new Set([
  'PATCH /api/payments/package-payments/{id}',
  // The tamper check only reads the log (its run record is its only write): finance proves the books.
  'POST /api/admin/log-verifications',
]);

let t: TestApp;
let operations: Array<{ method: string; path: string; params: Array<{ name: string; in: string; schema?: { format?: string; type?: string; pattern?: string } }> }>;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
  const paths = (t.app.swagger() as { paths: Record<string, Record<string, { parameters?: [] }>> }).paths;
  operations = Object.entries(paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, params: op.parameters ?? [] })));
});
afterAll(async () => t?.close());

describe('the authorization matrix over every route of the OpenAPI description', () => {
  it('covers every route the api registered under /api (none is hidden from it)', () => {
    expect(operations.length).toBeGreaterThan(150);
    for (const listed of [...PUBLIC, ...OWN_ACCOUNT, ...MEMBER]) {
      const [method, path] = listed.split(' ');
      expect(operations.some((o) => o.method === method && o.path === path), `${listed} is listed but not served`).toBe(true);
    }
  });

  it('refuses each caller every route not open to them', async () => {
    const h = httpHelpers(t);
    const owner = await h.registeredMember();
    const other = await h.registeredMember();
    const finance = await h.adminToken('finance');
    // The owner's own records, so ids in paths are real ones that belong to someone else.
    const receipt = await h.upload('POST', '/api/payments/initiate', {
      token: owner.token,
      fields: { txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'pop' },
      files: { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } },
    });
    expect(receipt.status, receipt.body.message).toBe(200);
    const paymentId = receipt.body.data.payment_id as string;

    const urlOf = (op: (typeof operations)[number]) =>
      op.path.replace(/\{(\w+)\}/g, (_all, name: string) => {
        const schema = op.params.find((p) => p.in === 'path' && p.name === name)?.schema;
        if (schema?.format === 'uuid' || schema?.type === 'string') return /payment/.test(op.path) ? paymentId : owner.id;
        if (schema?.pattern?.includes('\\d{4}-')) return '2026-01';
        return '1';
      });
    const refusals: string[] = [];
    const expectRefused = async (op: (typeof operations)[number], who: string, token: string | undefined, allowed: number[]) => {
      const response = await t.app.inject({ method: op.method as 'GET', url: urlOf(op), payload: ['GET', 'DELETE'].includes(op.method) ? undefined : {}, headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!allowed.includes(response.statusCode)) refusals.push(`${route(op.method, op.path)} as ${who}: ${response.statusCode} ${response.body.slice(0, 120)}`);
    };

    for (const op of operations) {
      const key = route(op.method, op.path);
      if (key === 'POST /api/auth/logout') continue; // would end the callers' sessions; guarded like the rest (OWN_ACCOUNT)
      if (PUBLIC.has(key)) continue;
      await expectRefused(op, 'anonymous', undefined, [401]);
      // Signed in: 403, or 404 for a record the caller may not know exists. Never 401 (the sessions stay valid).
      if (!OWN_ACCOUNT.has(key) && !MEMBER.has(key)) await expectRefused(op, 'another member', other.token, [403, 404]);
      if (op.method !== 'GET' && !OWN_ACCOUNT.has(key) && !READS_BY_WRITE_VERB.has(key)) await expectRefused(op, 'finance (a write)', finance, [403, 404]);
    }
    expect(refusals).toEqual([]);
    // The owner still reaches their own records with the same ids (the refusals above were not just bad ids).
    expect((await h.call('GET', `/api/users/${owner.id}/profile`, { token: owner.token })).status).toBe(200);
    expect((await h.call('GET', `/api/payments/package-payments/${paymentId}`, { token: owner.token })).status).toBe(200);
  }, 120_000);
});
