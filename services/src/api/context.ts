import type { FastifyRequest } from 'fastify';
import type { CommandContext } from '../core/command';
import type { Config } from '../core/config';
import type { Db } from '../core/db';
import type { Actor, EventMetadata } from '../core/event-store';
import type { PaystackClient } from '../gateway/paystack';
import type { Mailer } from '../notifications/mailer';
import type { MailOutbox } from '../notifications/outbox';

/** What route handlers reach through `app`: decorated once in app.ts. */
export type AppServices = {
  config: Config;
  db: Db;
  mailer: Mailer;
  /** The mail outbox: `enqueue` inside a command's transaction, then `wake` (docs/mail-outbox.md). */
  outbox: MailOutbox;
  /** The card gateway (Paystack's HTTP contract; the local stand-in in development and tests). */
  gateway: PaystackClient;
  commands: CommandContext;
  clock: () => Date;
};

declare module 'fastify' {
  interface FastifyInstance extends AppServices {}
}

/** The metadata every event a request records carries (ARCHITECTURE.md "The event log"). */
export function requestMetadata(request: FastifyRequest, now: Date, actor?: Actor): EventMetadata {
  const account = request.account;
  const idempotencyKey = request.headers['idempotency-key'];
  return {
    actor: actor ?? (account ? { type: account.kind, id: account.id } : { type: 'anonymous', id: null }),
    now: now.toISOString(),
    request_id: request.id,
    correlation_id: (request.headers['x-correlation-id'] as string | undefined) ?? request.id,
    causation_id: null,
    idempotency_key: typeof idempotencyKey === 'string' ? idempotencyKey : null,
  };
}
