import pino from 'pino';
import { appendFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';

let t: TestApp;
const errors: unknown[] = [];
beforeAll(async () => { t = await createTestApp({ httpLogger: { level: 'error', stream: { write: (line: string) => { const o = JSON.parse(line); errors.push(o.err ?? o); } } } as never }); });
afterAll(async () => t?.close());

const hostile: unknown[] = ['a\u0000b', '\ud800x', 1e17, 2 ** 31, 2 ** 53 - 1, -1, '0x7d0', '1e400', 'NaN', 1.005, { a: 1 }, [1, 2], true, null, '', 'x'.repeat(100_000), '9'.repeat(40), '2026-99-99', '[0,99999999999999999]', '["id","ASC"]', '{"id":[1e300]}', '-0', 'false'];

it('explores', async () => {
  const http = httpHelpers(t);
  const admin = await http.adminToken();
  const member = await http.registeredMember();
  const docs = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as any;
  writeFileSync('/tmp/sec-input/explore.txt', '');
  for (const [path, ops] of Object.entries<any>(docs.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const params: any[] = op.parameters ?? [];
      const body = op.requestBody?.content?.['application/json']?.schema;
      const props = Object.keys(body?.properties ?? {});
      for (const token of [admin, member.token, undefined]) {
        for (const value of hostile) {
          const targets = [...params.map((p) => ({ in: p.in, name: p.name })), ...props.map((name) => ({ in: 'body', name })), { in: 'nobody', name: '' }];
          for (const target of targets) {
            let url = path;
            const query = new URLSearchParams();
            for (const p of params) {
              const v = target.in === p.in && target.name === p.name ? value : p.in === 'path' ? (p.name === 'id' ? member.id : '1') : undefined;
              if (v === undefined) continue;
              const s = typeof v === 'string' ? v : JSON.stringify(v);
              if (p.in === 'path') url = url.replace(`{${p.name}}`, enc(s));
              else query.set(p.name, s);
            }
            url = url.replace(/\{(\w+)\}/g, member.id);
            const payload: Record<string, unknown> = {};
            for (const name of props) payload[name] = name === target.name && target.in === 'body' ? value : baseline(name, body.properties[name]);
            const qs = query.toString();
            const response = await t.app.inject({ method: method.toUpperCase() as 'GET', url: url + (qs ? `?${qs}` : ''), payload: ['get', 'delete'].includes(method) ? undefined : (target.in === 'nobody' ? deep(50000) : JSON.stringify(payload)), headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
            if (response.statusCode >= 500) {
              const e = errors.pop() as any;
              appendFileSync('/tmp/sec-input/explore.txt', '\n' + `${method.toUpperCase()} ${path} [${token === admin ? 'admin' : token ? 'member' : 'anon'}] ${target.in}:${target.name}=${JSON.stringify(value)?.slice(0, 40)} -> ${response.statusCode} ${String(e?.message ?? e).slice(0, 160).replace(/\n/g, ' ')}`);
            }
          }
        }
      }
    }
  }
  
}, 1_800_000);

let n = 0;
function baseline(name: string, schema: any): unknown {
  n++;
  if (schema?.enum) return schema.enum[0];
  if (/email/.test(name)) return `fuzz${n}@example.test`;
  if (/phone/.test(name)) return '08031234567';
  if (/username|referrer|placer/.test(name)) return name === 'username' ? `fuzz${n}` : '';
  if (/password/.test(name)) return 'correct horse battery';
  if (/code/.test(name) && !/bank/.test(name)) return '123456';
  if (/date|_at$/.test(name)) return '2026-01-01';
  if (/account_number/.test(name)) return '0123456789';
  if (schema?.type === 'string') return 'Hello';
  if (schema?.type === 'boolean') return true;
  if (schema?.type === 'array') return [];
  return 1;
}
const multipartNames = ['name', 'description', 'amount', 'payment_type', 'txn_source', 'meta_data', 'is_upgrade', 'worth', 'points', 'rank_id', 'title', 'products', 'pickup_type', 'image'];
function enc(s: string): string { try { return encodeURIComponent(s); } catch { return '%ED%A0%80x'; } }
function deep(n: number): string { return '{"a":'.repeat(n) + '1' + '}'.repeat(n); }
