import { z } from 'zod';

const configSchema = z.object({
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/portal'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  PORT: z.coerce.number().int().default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().optional(),
  JWT_SECRET: z.string().min(16).default('development-only-secret-change-me'),
  CODE_PEPPER: z.string().default('development-only-pepper'),
  QUEUE_PREFIX: z.string().default('portal'),
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
  PAYSTACK_BASE_URL: z.string().default('http://127.0.0.1:4010'),
  PAYSTACK_SECRET_KEY: z.string().default('sk_test_local_standin_secret'),
  /** Registrations accepted from one address per 15 minutes (an office behind one address registers several). */
  REGISTRATIONS_PER_ADDRESS: z.coerce.number().int().positive().default(30),
  NODE_ENV: z.string().default('development'),
  /** Origins allowed to call the api from a browser (comma-separated). Empty: same origin only. */
  CORS_ORIGINS: z.string().default(''),
  /** Bearer token for /metrics and the detailed /api/ready. Required for them in production; without it they are closed there. */
  OPERATIONS_TOKEN: z.string().optional(),
  /** The OpenAPI page at /api/docs: on by default in development, off in production unless set. */
  API_DOCS: z.stringbool().optional(),
  /** Extra origins the member app may frame (the card provider's checkout), comma-separated; the gateway's own origin is always allowed. */
  CHECKOUT_ORIGINS: z.string().default('https://checkout.paystack.com'),
});

export type Config = z.infer<typeof configSchema> & { publicUrl: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.parse(env);
  return { ...parsed, publicUrl: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}` };
}
