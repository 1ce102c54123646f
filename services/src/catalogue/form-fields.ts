import type { z } from 'zod';
import { RuleViolation } from '../core/errors';

/**
 * Multipart routes have no body schema (core/uploads.ts reads the parts in the handler), so their
 * text fields are checked here: the first problem answers 422 under its field, like a body schema.
 */
export function parseFields<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new RuleViolation(issue?.message ?? 'The given data was invalid.', issue?.path.join('.') || undefined);
}
