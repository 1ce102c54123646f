import { describe, expect, it } from 'vitest';
import { UnsafeConfiguration, loadConfig, parseTrustProxy } from './config';

const strong = { JWT_SECRET: 'k9V2pQ7xL0aZ3sD8fG1hJ6kL4mN5bV7cX9zQ2wE4', CODE_PEPPER: 'p3Q8rT1yU6iO9pA2sD5fG7hJ0kL4zX8cV1bN3mQ7', PAYSTACK_SECRET_KEY: 'sk_live_operator_supplied_key' };

function refusal(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof UnsafeConfiguration) return error.problems;
    throw error;
  }
  return [];
}

describe('a production start is safe by default', () => {
  it('refuses to start without JWT_SECRET and CODE_PEPPER, naming both', () => {
    const problems = refusal({ NODE_ENV: 'production', PAYSTACK_SECRET_KEY: strong.PAYSTACK_SECRET_KEY });
    expect(problems).toEqual([expect.stringMatching(/^JWT_SECRET is missing/), expect.stringMatching(/^CODE_PEPPER is missing/)]);
  });

  it('refuses the published defaults and placeholders', () => {
    const problems = refusal({ NODE_ENV: 'production', JWT_SECRET: 'development-only-secret-change-me', CODE_PEPPER: 'change-me-in-production-too', PAYSTACK_SECRET_KEY: 'sk_test_local_standin_secret' });
    expect(problems).toEqual([
      expect.stringMatching(/^JWT_SECRET is a published default/),
      expect.stringMatching(/^CODE_PEPPER is a published default/),
      expect.stringMatching(/^PAYSTACK_SECRET_KEY is missing or the local stand-in's/),
    ]);
  });

  it('refuses short secrets, saying how long they are', () => {
    expect(refusal({ NODE_ENV: 'production', ...strong, JWT_SECRET: 'short-but-16-chars' })).toEqual([expect.stringMatching(/^JWT_SECRET is too short \(18 characters\)/)]);
  });

  it('refuses to seed the demo company in production', () => {
    expect(refusal({ NODE_ENV: 'production', ...strong, SEED_DEMO: 'true' })).toEqual([expect.stringMatching(/^SEED_DEMO is set/)]);
  });

  it('starts with strong secrets, and then talks to the real Paystack by default', () => {
    const config = loadConfig({ NODE_ENV: 'production', ...strong });
    expect(config.isProduction).toBe(true);
    expect(config.PAYSTACK_BASE_URL).toBe('https://api.paystack.co');
  });

  it('keeps the development defaults outside production', () => {
    const config = loadConfig({});
    expect(config.isProduction).toBe(false);
    expect(config.JWT_SECRET).toBe('development-only-secret-change-me');
    expect(config.trustProxy).toBe(false);
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default, a hop count, or a list of proxy addresses', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.4')).toEqual(['10.0.0.0/8', '192.168.1.4']);
  });

  it('refuses "true", which would believe any caller', () => {
    expect(() => parseTrustProxy('true')).toThrow(/give the number of proxies/);
  });
});

describe('empty variables', () => {
  it('count as unset (a compose file passes ADMIN_PASSWORD= when the operator gave none)', () => {
    const config = loadConfig({ ADMIN_PASSWORD: '', ROOT_EMAIL: '', TRUST_PROXY: '', PUBLIC_URL: '' });
    expect(config.ADMIN_PASSWORD).toBeUndefined();
    expect(config.ROOT_EMAIL).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
  });
});
