import { afterAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';

/** Issue 9, item 6: headers on every answer, CORS, and what production exposes. */
const apps: TestApp[] = [];
/** A production start refuses published secrets (core/config.ts): these are this test's own. */
const productionSecrets = {
  JWT_SECRET: 'security-headers-test-jwt-secret-0123456789abcdef',
  CODE_PEPPER: 'security-headers-test-code-pepper-0123456789abcdef',
  PAYSTACK_SECRET_KEY: 'sk_test_security_headers_test_key_0123456789',
};
const start = async (env: Record<string, string> = {}) => {
  const t = await createTestApp({ env });
  apps.push(t);
  return t;
};
afterAll(async () => {
  for (const t of apps) await t.close();
});

describe('security headers and exposure', () => {
  it('sends a CSP, frame and sniffing protection and a referrer policy with every answer; HSTS only over https', async () => {
    const t = await start();
    for (const url of ['/api/health', '/api/packages/all', '/api/no-such-path', '/login', '/admin']) {
      const response = await t.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'self'");
      expect(csp, url).toContain("object-src 'none'");
      // The card provider's checkout frame (the stand-in here) is the one frame from elsewhere.
      expect(csp, url).toContain(`frame-src 'self' ${new URL(t.paystack.url).origin}`);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
    const https = await start({ PUBLIC_URL: 'https://portal.example.ng' });
    expect((await https.app.inject({ method: 'GET', url: '/api/health' })).headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  }, 180_000);

  it('answers other origins no CORS grant unless they are configured', async () => {
    const t = await start();
    const response = await t.app.inject({ method: 'GET', url: '/api/packages/all', headers: { origin: 'https://evil.example' } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/auth/login', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();

    const configured = await start({ CORS_ORIGINS: 'https://office.example.ng' });
    const allowed = await configured.app.inject({ method: 'GET', url: '/api/packages/all', headers: { origin: 'https://office.example.ng' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://office.example.ng');
    const other = await configured.app.inject({ method: 'GET', url: '/api/packages/all', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  }, 180_000);

  it('in production, closes /metrics and the details of /api/ready without the operations token, and the docs page unless asked', async () => {
    const closed = await start({ NODE_ENV: 'production', ...productionSecrets });
    expect((await closed.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const ready = await closed.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ success: true, message: 'ready' });
    expect((await closed.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await closed.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);

    const token = 'operations-token-operations-token';
    const withToken = await start({ NODE_ENV: 'production', ...productionSecrets, OPERATIONS_TOKEN: token, API_DOCS: 'true' });
    expect((await withToken.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await withToken.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
    const metrics = await withToken.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('http_request_duration_seconds');
    const detailed = await withToken.app.inject({ method: 'GET', url: '/api/ready', headers: { authorization: `Bearer ${token}` } });
    expect(detailed.json().data).toMatchObject({ database: 'ok', redis: 'ok' });
    expect((await withToken.app.inject({ method: 'GET', url: '/api/ready' })).json().data).toBeUndefined();
    expect((await withToken.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
  }, 180_000);
});
