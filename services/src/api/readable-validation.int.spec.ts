import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';

/**
 * Every validation message is a person's, also where a schema gave none (contracts/readable-issues.ts):
 * `POST /api/payments/verify` with `{}` answered zod's 'Invalid input: expected string, received
 * undefined'. The sweep posts `{}` and wrongly typed bodies to every POST, PUT and PATCH route of the
 * OpenAPI description, as an admin and as a member, and looks for zod's own wording.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
});
afterAll(async () => t?.close());

const zodWording = /Invalid input|expected (string|number|boolean|object|array)|received (undefined|string|number|object)|Too (big|small)|Invalid (option|string|number|element|key|union)/i;

describe('readable validation messages', () => {
  it('POST /api/payments/verify without a reference', async () => {
    const member = await h.registeredMember();
    const answer = await h.call('POST', '/api/payments/verify', { token: member.token, body: {} });
    expect(answer).toMatchObject({ status: 422, body: { message: 'The reference field is required.', errors: { reference: ['The reference field is required.'] } } });
    const wrongType = await h.call('POST', '/api/payments/verify', { token: member.token, body: { reference: 42 } });
    expect(wrongType).toMatchObject({ status: 422, body: { message: 'The reference must be text.' } });
    const tooLong = await h.call('POST', '/api/payments/verify', { token: member.token, body: { reference: 'r'.repeat(101) } });
    expect(tooLong).toMatchObject({ status: 422, body: { message: 'The reference may not be greater than 100 characters.' } });
  });

  it('POST /api/auth/change-password-link without the old password', async () => {
    const answer = await h.call('POST', '/api/auth/change-password-link', { token: await h.adminToken(), body: { email: 'admin@example.test' } });
    expect(answer).toMatchObject({ status: 422, body: { message: 'The old password field is required.' } });
  });

  it('no route answers in zod\'s own words, nor with a 500', async () => {
    const admin = await h.adminToken();
    const member = await h.activeMember();
    const doc = (await h.call('GET', '/api/docs/json')).body as unknown as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>> };
    const found: string[] = [];
    let calls = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      // Signing out would end the tokens the rest of the sweep uses.
      if (/logout/.test(path)) continue;
      for (const method of ['post', 'put', 'patch'] as const) {
        const operation = operations[method];
        if (!operation) continue;
        const url = path.replace(/\{[^}]+\}/g, (name) => (name === '{id}' || /uuid|user|member/.test(name) ? member.id : '1'));
        const fields = Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {});
        const bodies = [{}, Object.fromEntries(fields.map((field) => [field, { nested: true }])), Object.fromEntries(fields.map((field) => [field, -5.5]))];
        for (const body of bodies) {
          for (const token of [admin, member.token]) {
            const answer = await h.call(method.toUpperCase() as 'POST' | 'PUT' | 'PATCH', url, { token, body });
            calls++;
            const text = `${answer.body.message} ${JSON.stringify(answer.body.errors ?? {})}`;
            if (answer.status >= 500 || zodWording.test(text)) found.push(`${method.toUpperCase()} ${url} ${JSON.stringify(body)} → ${answer.status} ${text}`);
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(300);
    expect(found).toEqual([]);
  }, 300_000);
});
