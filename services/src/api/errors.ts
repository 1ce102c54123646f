import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from '@fastify/type-provider-zod';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ConcurrencyConflict, DomainError, Forbidden, NotFound, RuleViolation, TooManyRequests, Unauthenticated } from '../core/errors';

/** The HTTP status a refusal of the domain is answered with. */
export function domainErrorStatus(error: DomainError): number {
  return error instanceof RuleViolation ? 422
    : error instanceof NotFound ? 404
    : error instanceof Unauthenticated ? 401
    : error instanceof Forbidden ? 403
    : error instanceof TooManyRequests ? 429
    : 422;
}

/**
 * One root error handler (STYLE.md 11): every error body has a `message` a person can read;
 * validation failures carry `errors` by field; nothing leaks a stack trace or SQL.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || (issue.params as { issue?: { path?: string[] } })?.issue?.path?.join('.') || 'body';
        (errors[field] ??= []).push(issue.message ?? 'is invalid');
      }
      const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
      return reply.status(422).send({ success: false, message: first, errors });
    }
    if (error instanceof DomainError) {
      const status = domainErrorStatus(error);
      const body: Record<string, unknown> = { success: false, message: error.message };
      if (status === 422 && error.field) body.errors = { [error.field]: [error.message] };
      return reply.status(status).send(body);
    }
    if (error instanceof ConcurrencyConflict) {
      request.log.warn({ err: error }, 'concurrency conflict after retries');
      return reply.status(409).send({ success: false, message: 'Someone else changed this at the same time. Please try again.' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ success: false, message: 'Something went wrong on our side. Please try again.' });
    }
    const refusal = refusedInput(error);
    if (refusal) {
      // The schemas refuse these first; this is the net for a value that slipped past them.
      request.log.warn({ err: error }, 'input refused by the database or a range check');
      return reply.status(422).send({ success: false, message: refusal });
    }
    const fastifyError = error as FastifyError;
    const statusCode = fastifyError.statusCode ?? 500;
    if (statusCode < 500) {
      // Fastify's own 4xx (bad JSON, payload too large, unsupported media type, rate limit).
      return reply.status(statusCode).send({ success: false, message: humanMessage(fastifyError) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ success: false, message: 'Something went wrong on our side. Please try again.' });
  });
}

/**
 * Errors that mean "this input cannot be used", whatever the route: PostgreSQL's data exceptions
 * (SQLSTATE class 22: a number out of range, a malformed date, a NUL byte) and program limits
 * (54: too deep or too complex), and a RangeError from the money conversions. Answered 422.
 */
function refusedInput(error: unknown): string | null {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^(22|54)[0-9A-Z]{3}$/.test(code) && 'severity' in (error as object)) {
    return 'A value in this request is out of range or malformed.';
  }
  if (error instanceof RangeError) return 'A number in this request is out of range.';
  return null;
}

function humanMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request is too large.';
    default:
      return error.message;
  }
}
