import { z } from 'zod';

const configSchema = z.object({
  /** `production` turns on the start-up checks below (secrets, no demo company). */
  NODE_ENV: z.string().default('development'),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/portal'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  PORT: z.coerce.number().int().default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().optional(),
  JWT_SECRET: z.string().min(16).default(DEVELOPMENT_DEFAULTS().JWT_SECRET),
  CODE_PEPPER: z.string().default(DEVELOPMENT_DEFAULTS().CODE_PEPPER),
  QUEUE_PREFIX: z.string().default('portal'),
  /** Named prepared statements for the hot statements (core/db.ts PREPARED): on unless 0 (decision 66, then NN: a stale plan after a migration is recovered). */
  PG_PREPARED_STATEMENTS: z.enum(['0', '1']).default('1'),
  /**
   * Which proxies may name the client's address in X-Forwarded-For (docs/security-auth.md): off by
   * default (the socket's address is the client's); a hop count (`1` behind one load balancer), or
   * a comma-separated list of proxy addresses / CIDR ranges.
   */
  TRUST_PROXY: z.string().default('false'),
  /** Seed the demo company (its printed logins) into an empty database. `npm start` sets it in development; refused in production. */
  SEED_DEMO: z.stringbool().default(false),
  /** The first administrator of a company seeded without the demo (production). */
  ADMIN_EMAIL: z.email('ADMIN_EMAIL must be an e-mail address.').optional(),
  ADMIN_NAME: z.string().default('Administrator'),
  ADMIN_PASSWORD: z.string().optional(),
  /** The company root member (the default referral code) of a company seeded without the demo. */
  ROOT_USERNAME: z.string().regex(/^[A-Za-z0-9_.-]{3,40}$/, 'ROOT_USERNAME: 3 to 40 letters, digits, dots, dashes or underscores.').default('herbalhq'),
  ROOT_EMAIL: z.email('ROOT_EMAIL must be an e-mail address.').optional(),
  SMTP_HOST: z.string().default('127.0.0.1'),
  SMTP_PORT: z.coerce.number().int().default(1025),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  SMTP_SECURE: z.stringbool().default(false),
  MAIL_FROM: z.string().default('"Herbal Life Network" <no-reply@herbal-portal.test>'),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(15),
  LOG_LEVEL: z.string().default('info'),
  WEB_MEMBER_DIST: z.string().optional(),
  WEB_ADMIN_DIST: z.string().optional(),
  UPLOAD_DIR: z.string().default('.data/uploads'),
  /** The card gateway (Paystack's HTTP contract); `npm start` points it at the local stand-in. */
  PAYSTACK_BASE_URL: z.string().optional(),
  PAYSTACK_SECRET_KEY: z.string().default(DEVELOPMENT_DEFAULTS().PAYSTACK_SECRET_KEY),
  /** Registrations accepted from one address per 15 minutes (an office behind one address registers several). */
  REGISTRATIONS_PER_ADDRESS: z.coerce.number().int().positive().default(30),
  /** Origins allowed to call the api from a browser (comma-separated). Empty: same origin only. */
  CORS_ORIGINS: z.string().default(''),
  /** Bearer token for /metrics and the detailed /api/ready. Required for them in production; without it they are closed there. */
  OPERATIONS_TOKEN: z.string().optional(),
  /** The OpenAPI page at /api/docs: on by default in development, off in production unless set. */
  API_DOCS: z.stringbool().optional(),
  /** Extra origins the member app may frame (the card provider's checkout), comma-separated; the gateway's own origin is always allowed. */
  CHECKOUT_ORIGINS: z.string().default('https://checkout.paystack.com'),
  /** Consecutive failed sign-ins of one account before each further try waits (1, 2, 4 … 60 minutes) and the owner is mailed. */
  SIGN_IN_FAILURES_BEFORE_LOCK: z.coerce.number().int().positive().default(5),
  /** Failed sign-ins across every account per 15 minutes before password sign-in pauses (password spraying). */
  SIGN_IN_GLOBAL_FAILURES_PER_15_MIN: z.coerce.number().int().positive().default(500),
  /** One-time-code mails to one e-mail address per hour, whoever asks and from wherever. */
  CODE_MAILS_PER_EMAIL_PER_HOUR: z.coerce.number().int().positive().default(5),
  /** Days a sent mail stays in the outbox (recipients and subjects, for support questions) before the hourly clean-up deletes it. */
  SENT_MAIL_RETENTION_DAYS: z.coerce.number().int().positive().max(3650).default(30),
});

/** The development defaults: known to everyone who reads this file, so refused in production. */
function DEVELOPMENT_DEFAULTS() {
  return {
    JWT_SECRET: 'development-only-secret-change-me',
    CODE_PEPPER: 'development-only-pepper',
    PAYSTACK_SECRET_KEY: 'sk_test_local_standin_secret',
  };
}

/** Values published in this repository (defaults, compose placeholders, tests): never a production secret. */
const KNOWN_SECRETS = new Set([
  ...Object.values(DEVELOPMENT_DEFAULTS()),
  'change-me-in-production-please',
  'change-me-in-production-too',
  'test-secret-test-secret-test-secret',
  'secret',
  'changeme',
  'change-me',
]);
const MIN_SECRET_LENGTH = 32;

export type TrustProxy = boolean | number | string[];
export type Config = Omit<z.infer<typeof configSchema>, 'PAYSTACK_BASE_URL'> & { publicUrl: string; trustProxy: TrustProxy; isProduction: boolean; PAYSTACK_BASE_URL: string };

/** A configuration that must not start; the message names every variable to fix. */
export class UnsafeConfiguration extends Error {
  constructor(readonly problems: string[]) {
    super(`Refusing to start in production:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'UnsafeConfiguration';
  }
}

export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false' || text === 'off' || text === 'no' || text === '0') return false;
  if (/^\d+$/.test(text)) return Number(text);
  if (text === 'true' || text === 'on' || text === 'yes') {
    throw new Error('TRUST_PROXY=true would believe any X-Forwarded-For header a caller sends; give the number of proxies in front of the api (e.g. 1) or their addresses.');
  }
  return value.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
}

function secretProblem(name: string, value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return `${name} is missing: set it to a random value of at least ${MIN_SECRET_LENGTH} characters (e.g. openssl rand -base64 48).`;
  if (KNOWN_SECRETS.has(value)) return `${name} is a published default: set it to a random value of at least ${MIN_SECRET_LENGTH} characters.`;
  if (value.length < MIN_SECRET_LENGTH) return `${name} is too short (${value.length} characters): use at least ${MIN_SECRET_LENGTH} random characters.`;
  return null;
}

/**
 * Where the member app is served, for links in mails: PUBLIC_URL, else this machine's api port.
 * Read without the rest of the configuration by the notifications policy, which the worker lists
 * before any configuration is loaded.
 */
export function publicUrlOf(env: Record<string, string | undefined>): string {
  const given = env.PUBLIC_URL?.trim();
  if (given) return given;
  const port = Number(env.PORT?.trim() || 3000);
  return `http://localhost:${Number.isInteger(port) ? port : 3000}`;
}

export function loadConfig(given: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`ADMIN_PASSWORD=` in a compose file) counts as unset.
  const env = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const isProduction = (env.NODE_ENV ?? '').trim().toLowerCase() === 'production';
  if (isProduction) {
    const problems = [
      secretProblem('JWT_SECRET', env.JWT_SECRET),
      secretProblem('CODE_PEPPER', env.CODE_PEPPER),
      // The webhook's signature is checked with this key: a published one lets anyone forge payments.
      env.PAYSTACK_SECRET_KEY === undefined || KNOWN_SECRETS.has(env.PAYSTACK_SECRET_KEY) ? 'PAYSTACK_SECRET_KEY is missing or the local stand-in\'s: set your Paystack secret key.' : null,
      ['1', 'true', 'yes', 'on'].includes((env.SEED_DEMO ?? '').trim().toLowerCase()) ? 'SEED_DEMO is set: the demo company and its published logins are never seeded in production.' : null,
    ].filter((p): p is string => p !== null);
    if (problems.length > 0) throw new UnsafeConfiguration(problems);
  }
  const parsed = configSchema.parse(env);
  return {
    ...parsed,
    isProduction,
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    PAYSTACK_BASE_URL: parsed.PAYSTACK_BASE_URL ?? (isProduction ? 'https://api.paystack.co' : 'http://127.0.0.1:4010'),
    publicUrl: publicUrlOf({ PUBLIC_URL: parsed.PUBLIC_URL, PORT: String(parsed.PORT) }),
  };
}
