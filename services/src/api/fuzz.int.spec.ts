import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { multipartBody } from '../../test/multipart';

/**
 * No request of any shape gets a 5xx (docs/security.md, V5). Every route of the OpenAPI
 * description is called with fast-check's hostile strings and numbers in its path parameters,
 * query and body fields (one field at a time, the others plausible, so the hostile value reaches
 * the code behind the schema), and multipart routes with hostile form fields and truncated bodies.
 * Member routes are called by a member (their own id in the path), the rest by an administrator,
 * the public ones anonymously too. FUZZ_RUNS (default 3) cases per route and caller keep `npm test`
 * short (about a minute); a deeper run: `FUZZ_RUNS=40 npx vitest run services/src/api/fuzz.int.spec.ts`
 * (several minutes), FUZZ_RUNS=200 for a long session; FUZZ_SEED=<the seed a failure printed> replays it.
 */
const RUNS = wholeNumberFromEnv('FUZZ_RUNS', 3);
const SEED = process.env.FUZZ_SEED ? wholeNumberFromEnv('FUZZ_SEED', 0) : undefined;

/** A mistyped FUZZ_RUNS must not quietly run nothing (Number('4o') is NaN, and fast-check would then run no case). */
function wholeNumberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  if (!/^-?\d+$/.test(raw) || (name === 'FUZZ_RUNS' && Number(raw) < 1)) throw new Error(`${name} must be a whole number${name === 'FUZZ_RUNS' ? ' of at least 1' : ''}, not "${raw}".`);
  return Number(raw);
}

const hostileConstants: unknown[] = [
  'a\u0000b', '\u0000', '\ud800', 'x\udfffy', '\u0007bell', '\u202eevil', 1e17, -1e17, 2 ** 31, 2 ** 31 - 1, 2 ** 53 - 1, -(2 ** 53), 2 ** 64, 1e308, -0, 0.001, 12.345,
  '12.345', '0x7d0', '1e400', '1e3', 'NaN', 'Infinity', '-1', '0', '', ' ', '9'.repeat(400), 'x'.repeat(20_000), '2026-99-99', '+275760-09-13', '0000-01-01',
  '[0,99999999999999999999]', '[5,2]', '["id","DESC"]', '["nope","ASC"]', '{"id":[1e400]}', '{"created_at_gte":"+275760-09-13"}', '{"q":"\\u0000"}', '{"amount_gte":1e308}',
  'false', 'true', true, false, null, [], {}, [[[[[]]]]], { __proto__: { admin: true } }, { constructor: { prototype: { x: 1 } } }, '<script>alert(1)</script>', "' OR 1=1 --", '%00', '../../etc/passwd',
  '=HYPERLINK("http://evil.test")', 'ＡＢＣ', '😀', '\r\nX-Injected: 1',
];
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...hostileConstants) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

type Schema = { type?: string | string[]; enum?: unknown[]; format?: string; properties?: Record<string, Schema>; pattern?: string };
type Operation = { method: string; path: string; params: Array<{ name: string; in: string; schema?: Schema }>; body?: Schema };

let n = 0;
/** A plausible value for a field, so the hostile one next to it is what the route has to cope with. */
function plausible(name: string, schema: Schema | undefined): unknown {
  n++;
  if (schema?.enum) return schema.enum[0];
  if (/email/.test(name)) return `fuzz${n}@example.test`;
  if (/phone/.test(name)) return '08031234567';
  if (name === 'username') return `fuzz${n}`;
  if (/referrer|placer/.test(name)) return '';
  if (/password/.test(name)) return 'correct horse battery';
  if (name === 'code') return '123456';
  if (/date|_at$/.test(name)) return '2026-01-01';
  if (/account_number/.test(name)) return '0123456789';
  if (schema?.type === 'string') return 'Hello';
  if (schema?.type === 'boolean') return true;
  if (schema?.type === 'array') return [];
  return 1;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');
/** Percent-encodes like a browser would; a lone surrogate (which encodeURIComponent refuses) goes as its raw UTF-8 bytes. */
const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

let t: TestApp;
let operations: Operation[];
let member: { id: string; token: string };
let admin: string;
const MEMBER_PATH = /^\/api\/(users\/\{id\}|payments\/initiate|withdrawals\/pay-with-wallet|users\/create-profile|users\/withdrawal-amount|auth\/user$|withdrawals\/\{id\}\/initiate|incentive-claims\/\{id\}\/create)/;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
  const paths = (t.app.swagger() as { paths: Record<string, Record<string, { parameters?: Operation['params']; requestBody?: { content?: Record<string, { schema?: Schema }> } }>> }).paths;
  operations = Object.entries(paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, params: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema })),
  );
  const h = httpHelpers(t);
  const registered = await h.registeredMember();
  member = { id: registered.id, token: registered.token };
  admin = await h.adminToken();
});
afterAll(async () => t?.close());

function request(op: Operation, ownId: string, target: { in: string; name: string } | null, value: unknown) {
  let url = op.path;
  const query: string[] = [];
  for (const p of op.params) {
    const hit = target && target.in === p.in && target.name === p.name;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encode(hit ? asText(value) : p.schema?.format === 'uuid' || p.schema?.type === 'string' ? ownId : '1'));
    else if (p.in === 'query' && hit) query.push(`${encode(p.name)}=${encode(asText(value))}`);
  }
  url = url.replace(/\{\w+\}/g, ownId);
  const body: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(op.body?.properties ?? {})) body[name] = target?.in === 'body' && target.name === name ? value : plausible(name, schema);
  const wholeBody = target?.in === 'whole-body' ? value : body;
  return { url: query.length ? `${url}?${query.join('&')}` : url, payload: ['GET', 'DELETE'].includes(op.method) ? undefined : JSON.stringify(wholeBody ?? null) };
}

async function neverFails(op: Operation, token: string | undefined, ownId: string) {
  const targets = [
    ...op.params.map((p) => ({ in: p.in, name: p.name })),
    ...Object.keys(op.body?.properties ?? {}).map((name) => ({ in: 'body', name })),
    ...(['GET', 'DELETE'].includes(op.method) ? [] : [{ in: 'whole-body', name: '' }]),
  ];
  const isMultipart = !op.body && ['POST', 'PUT', 'PATCH'].includes(op.method);
  const cases = fc.record({ target: targets.length ? fc.constantFrom(...targets) : fc.constant(null), value: hostile, fields: fc.dictionary(fc.constantFrom('amount', 'name', 'description', 'payment_type', 'meta_data', 'products', 'worth', 'points', 'image', 'title', 'is_active', 'rank_id', 'pickup_type'), hostile, { maxKeys: 4 }), cut: fc.nat({ max: 60 }) });
  await fc.assert(
    fc.asyncProperty(cases, async ({ target, value, fields, cut }) => {
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      let response;
      if (isMultipart && cut % 2 === 0) {
        // Multipart: hostile fields, sometimes a body cut off mid-part.
        const form = await multipartBody(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, asText(v)])), { image: { filename: 'x.png', content: Buffer.from('\x89PNG\r\n\x1a\n<html><script>alert(1)</script>'), type: 'image/png' } });
        const payload = cut % 4 === 0 ? form.body.subarray(0, Math.max(1, form.body.length - cut - 20)) : form.body;
        response = await t.app.inject({ method: op.method as 'POST', url: request(op, ownId, null, null).url, payload, headers: { ...headers, ...form.headers } });
      } else {
        const { url, payload } = request(op, ownId, target, value);
        response = await t.app.inject({ method: op.method as 'GET', url, payload, headers: { ...headers, 'content-type': 'application/json' } });
      }
      if (response.statusCode >= 500) throw new Error(`${op.method} ${op.path} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      const body = response.headers['content-type']?.toString().includes('json') ? (JSON.parse(response.body) as { message?: unknown }) : null;
      if (response.statusCode >= 400 && body) expect(typeof body.message, `${op.method} ${op.path}: an error without a message`).toBe('string');
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
}

describe('fuzzing every route: no input gets a 5xx', () => {
  it('member routes, called by a member with their own id', async () => {
    for (const op of operations.filter((o) => MEMBER_PATH.test(o.path) && o.path !== '/api/auth/logout')) await neverFails(op, member.token, member.id);
  }, 600_000);

  it('every route, called anonymously', async () => {
    for (const op of operations.filter((o) => o.path !== '/api/auth/logout')) await neverFails(op, undefined, member.id);
  }, 600_000);

  it('every other route, called by an administrator', async () => {
    // Last: some admin writes end the member's sessions (a password reset) or deactivate them.
    for (const op of operations.filter((o) => !MEMBER_PATH.test(o.path) && o.path !== '/api/auth/logout')) await neverFails(op, admin, member.id);
  }, 600_000);

  it('deeply nested JSON is refused before it is parsed', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: deep, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/nests deeper/);
  });
});
