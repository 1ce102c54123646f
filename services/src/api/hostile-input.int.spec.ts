import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { multipartBody, tinyPng } from '../../test/multipart';

/** The classes of hostile input an outside review found (issue 9, item 4): each answers 4xx with a readable message. */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let member: Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  member = await h.registeredMember();
  admin = await h.adminToken();
});
afterAll(async () => t?.close());

describe('text that cannot be stored', () => {
  it('refuses a NUL byte in a sign-in name with 422 (it was a 500 from PostgreSQL)', async () => {
    const answer = await h.call('POST', '/api/auth/login', { body: { username: 'ada\u0000', password: 'whatever-it-is' } });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('The username contains characters that are not allowed.');
  });

  it('refuses a lone UTF-16 surrogate in a registration with 422', async () => {
    const answer = await h.call('POST', '/api/auth/register', { body: h.newMember({ first_name: 'Ada\ud800' }) });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('The first_name contains characters that are not allowed.');
  });

  it('refuses NUL in a path, a query and in a multipart form field', async () => {
    expect((await h.call('GET', '/api/settings/single/a%00b', { token: admin })).status).toBe(422);
    expect((await h.call('GET', `/api/admin/members?filter=${encodeURIComponent('{"q":"a\\u0000"}')}`, { token: admin })).status).toBe(422);
    const form = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { txn_source: 'package_payment', payment_type: 'pop', description: 'x\u0000y' }, files: { payment_receipt: { bytes: tinyPng(), filename: 'r.png', type: 'image/png' } } });
    expect(form.status).toBe(422);
  });
});

describe('numbers', () => {
  it('refuses naira beyond any real amount, fractions of a kobo and hex, never rounding or reinterpreting them', async () => {
    const url = `/api/withdrawals/${member.id}/initiate`;
    for (const amount of [1e17, '1e17', 10.005, '10.005', '0x7d0', 'Infinity', '1e3']) {
      const answer = await h.call('POST', url, { token: member.token, body: { amount } });
      expect(answer.status, String(amount)).toBe(422);
      expect(answer.body.message, String(amount)).toBe('withdrawal amount is invalid');
    }
  });

  it('refuses catalogue ids beyond 2³¹−1 (it was a 500: out of range for type integer)', async () => {
    for (const id of ['2147483648', '9007199254740991', '1e3', '0x10']) {
      const answer = await h.call('GET', `/api/packages/${id}`);
      expect(answer.status, id).toBe(422);
    }
    const registered = await h.call('POST', '/api/auth/register', { body: h.newMember({ package_id: 2 ** 31 }) });
    expect(registered.status).toBe(422);
    expect(registered.body.message).toBe('The package field is required.');
  });

  it('refuses a quantity of 2⁵³−1', async () => {
    const answer = await h.call('POST', '/api/payments/initiate', {
      token: member.token,
      body: { txn_source: 'member_product_purchase', payment_type: 'payment_gateway', pickup_type: 'repurchase_pickup', products: [{ id: 1, qty: 2 ** 53 - 1 }] },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('One of your selection has quantity more than 1,000 (at most 1,000 of each product per order).');
  });

  it('reads "false" as false', async () => {
    const on = await h.call('PUT', `/api/users/${member.id}/toggle-2fa`, { token: member.token, body: { enable_2fa: 'true' } });
    expect(on.status, on.body.message).toBe(200);
    const off = await h.call('PUT', `/api/users/${member.id}/toggle-2fa`, { token: member.token, body: { enable_2fa: 'false' } });
    expect(off.status, off.body.message).toBe(200);
    const row = await t.runtime.db.selectFrom('members').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
    expect((row as unknown as { two_factor_enabled?: boolean; enable_2fa?: boolean }).two_factor_enabled ?? (row as { enable_2fa?: boolean }).enable_2fa).toBe(false);
  });
});

describe('list queries', () => {
  it('refuses huge ranges, dates no calendar has and deep filters with 422', async () => {
    for (const query of [
      `range=${encodeURIComponent('[0,99999999999999999999]')}`,
      `range=${encodeURIComponent('[9007199254740990,9007199254740991]')}`,
      `filter=${encodeURIComponent('{"created_at_gte":"+275760-09-13"}')}`,
      `filter=${encodeURIComponent('{"created_at_lte":"0001-01-01"}')}`,
      `filter=${encodeURIComponent('{"package_id":1e400}')}`,
      `filter=${encodeURIComponent(`${'{"a":'.repeat(50)}1${'}'.repeat(50)}`)}`,
    ]) {
      const answer = await h.call('GET', `/api/admin/members?${query}`, { token: admin });
      expect(answer.status, query).toBe(422);
      expect(answer.body.message, query).toMatch(/range|filter/);
    }
  });
});

describe('malformed requests', () => {
  it('answers a truncated multipart body with 422, not 500', async () => {
    const { body, headers } = await multipartBody({ txn_source: 'package_payment', payment_type: 'pop' }, { payment_receipt: { filename: 'r.png', content: tinyPng(), type: 'image/png' } });
    const answer = await t.app.inject({ method: 'POST', url: '/api/payments/initiate', payload: body.subarray(0, body.length - 30), headers: { ...headers, authorization: `Bearer ${member.token}` } });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().message).toBe('The upload was cut off or malformed. Please try again.');
  });

  it('refuses JSON nested deeper than 32 levels with 400', async () => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: `{"username":${'['.repeat(40)}${']'.repeat(40)}}`, headers: { 'content-type': 'application/json' } });
    expect(answer.statusCode).toBe(400);
  });

  it('asks an anonymous caller to sign in before it reads their input', async () => {
    const answer = await h.call('POST', `/api/withdrawals/${member.id}/initiate`, { body: { amount: 'not a number' } });
    expect(answer.status).toBe(401);
  });
});

describe('uploads and stored files', () => {
  it('re-encodes an image: appended script and metadata are gone', async () => {
    const withExif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#2a7' } }).jpeg().withMetadata({ exif: { IFD0: { Artist: 'Secret Location' } } }).toBuffer();
    const polyglot = Buffer.concat([withExif, Buffer.from('<html><script>alert(document.cookie)</script></html>')]);
    const uploaded = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'pop' }, files: { payment_receipt: { bytes: polyglot, filename: 'r.jpg', type: 'image/jpeg' } } });
    expect(uploaded.status, uploaded.body.message).toBe(200);
    const view = await h.call('GET', `/api/payments/package-payments/${uploaded.body.data.payment_id}`, { token: member.token });
    const link = view.body.data.payment_receipt as string;
    expect(link).toMatch(/^storage\/receipts\/[0-9a-f-]+\.jpg\?expires=\d+&signature=/);
    const file = await t.app.inject({ method: 'GET', url: `/${link}` });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.includes('<script')).toBe(false);
    expect(file.rawPayload.includes('Secret Location')).toBe(false);
    expect((await sharp(file.rawPayload).metadata()).exif).toBeUndefined();
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="[0-9a-f-]+\.jpg"$/);
    expect(file.headers['content-security-policy']).toContain('sandbox');

    // Without the signature, with another's, or expired: as if there were no such file.
    const bare = link.split('?')[0];
    expect((await t.app.inject({ method: 'GET', url: `/${bare}` })).statusCode).toBe(404);
    // Another signature: its first character changed (to 'B' when it already is 'A', which once left the link as it was).
    const forged = link.replace(/signature=(.)/, (_match, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`);
    expect(forged).not.toBe(link);
    expect((await t.app.inject({ method: 'GET', url: `/${forged}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/${link.replace(/expires=\d+/, 'expires=1000')}` })).statusCode).toBe(404);
  });

  it('refuses a file that only starts like an image', async () => {
    const fake = Buffer.concat([tinyPng().subarray(0, 16), Buffer.from('<script>alert(1)</script>')]);
    const uploaded = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'pop' }, files: { payment_receipt: { bytes: fake, filename: 'r.png', type: 'image/png' } } });
    expect(uploaded.status).toBe(422);
  });
});
