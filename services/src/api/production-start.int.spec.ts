import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase, testQueuePrefix } from '../../test/database';
import { redisUrl } from '../../test/urls';
import { UnsafeConfiguration } from '../core/config';
import { CompanySetupRefused } from '../seed/company';
import { demoLogins } from '../seed/demo-company';
import { startWorker } from '../worker/worker';
import { startApi } from './server';

/** Issue 9, item 1: a production start is safe by default (docs/security-auth.md, threat A1). */
const secrets = {
  JWT_SECRET: 'Zq1v8Lr3Tn6Wp0Ys4Xb7Kc2Hd5Gf9Jm1Nq3Vr6Tw8Yz0',
  CODE_PEPPER: 'Pm4Qx7Rb1Sc9Td3Ue6Vf0Wg2Xh5Yi8Zj1Ak4Bl7Cm0Dn',
  PAYSTACK_SECRET_KEY: 'sk_live_operator_supplied_for_the_test',
};

let database: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  database = await createTestDatabase();
  env = { NODE_ENV: 'production', DATABASE_URL: database.url, REDIS_URL: redisUrl(), QUEUE_PREFIX: testQueuePrefix(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SMTP_PORT: '1', PAYSTACK_BASE_URL: 'http://127.0.0.1:1' };
});
afterAll(async () => database.drop());

describe('a production start', () => {
  it('refuses to start the api or the worker without the secrets, naming them', async () => {
    await expect(startApi(env)).rejects.toThrow(UnsafeConfiguration);
    await expect(startApi(env)).rejects.toThrow(/JWT_SECRET is missing[\s\S]*CODE_PEPPER is missing/);
    await expect(startWorker(env)).rejects.toThrow(/JWT_SECRET is missing/);
    await expect(startApi({ ...env, ...secrets, JWT_SECRET: 'change-me-in-production-please' })).rejects.toThrow(/JWT_SECRET is a published default/);
  });

  it('refuses to create a company in an empty database without the first administrator', async () => {
    await expect(startApi({ ...env, ...secrets })).rejects.toThrow(CompanySetupRefused);
    await expect(startApi({ ...env, ...secrets, ADMIN_EMAIL: 'owner@company.test', ADMIN_PASSWORD: 'Admin#2026demo' })).rejects.toThrow(/ADMIN_PASSWORD must be at least 12 characters and not a published demo password/);
  });

  it('seeds the company with no demo login, and the first administrator sets a password through the one-time setup link', async () => {
    const api = await startApi({ ...env, ...secrets, ADMIN_EMAIL: 'owner@company.test', ROOT_USERNAME: 'companyhq', ROOT_EMAIL: 'hq@company.test', PUBLIC_URL: 'https://portal.company.test' });
    try {
      const call = async (url: string, body: object) => {
        const response = await api.app.inject({ method: 'POST', url, payload: body });
        return { status: response.statusCode, body: response.json() };
      };
      for (const who of ['admin', 'finance'] as const) expect((await call('/api/auth/admin-login', { email: demoLogins[who].email, password: demoLogins[who].password })).status).toBe(422);
      expect((await call('/api/auth/login', { username: demoLogins.root.username, password: demoLogins.root.password })).status).toBe(422);
      const db = api.runtime.db;
      expect(await db.selectFrom('admins').select(['email', 'role']).execute()).toEqual([{ email: 'owner@company.test', role: 'admin' }]);
      expect(await db.selectFrom('members').select(['username', 'email', 'is_root']).execute()).toEqual([{ username: 'companyhq', email: 'hq@company.test', is_root: true }]);
      expect(Number((await db.selectFrom('packages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(6);
      expect(Number((await db.selectFrom('company_banks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
      // Without ADMIN_PASSWORD the administrator has none: the setup code waits in the outbox (the worker mails it).
      expect((await call('/api/auth/admin-login', { email: 'owner@company.test', password: 'anything at all' })).status).toBe(422);
      const mail = await db.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'owner@company.test').executeTakeFirstOrThrow();
      const code = /\b(\d{6})\b/.exec(mail.body_text ?? '')![1]!;
      expect((await call('/api/auth/reset-password', { email: 'owner@company.test', code, password: 'the owner chose this one', user_type: 'admin' })).status).toBe(200);
      expect((await call('/api/auth/admin-login', { email: 'owner@company.test', password: 'the owner chose this one' })).status).toBe(200);
    } finally {
      await api.close();
    }
    // A second start finds the company and seeds nothing, even without the variables.
    const again = await startApi({ ...env, ...secrets });
    await again.close();
  });
});
