import { HttpError } from 'react-admin';
import type { ErrorBody } from '@portal/services/contracts/http';

/** A message key (translated by the caller) or a server text (shown as is). */
export interface ErrorMessage {
  message: string;
  translate: boolean;
}

const isErrorBody = (body: unknown): body is Partial<ErrorBody> =>
  typeof body === 'object' && body !== null;

/**
 * Seed 000 §8: a 422 shows the first validation message from `errors`; otherwise the server message
 * if present; otherwise a generic text; with no response at all, 'Response not found'.
 */
export const errorMessage = (error: unknown): ErrorMessage => {
  if (error instanceof HttpError) {
    const body = error.body as unknown;
    if (isErrorBody(body)) {
      if (error.status === 422 && body.errors) {
        const first = Object.values(body.errors).flat().find((m) => typeof m === 'string' && m.length > 0);
        if (first) return { message: first, translate: false };
      }
      if (typeof body.message === 'string' && body.message.length > 0) {
        return { message: body.message, translate: false };
      }
    }
    if (error.message && error.message !== String(error.status)) {
      return { message: error.message, translate: false };
    }
    return { message: 'pos.error.generic', translate: true };
  }
  // Client-side failures carry a translation key.
  if (error instanceof Error && error.message.startsWith('pos.')) return { message: error.message, translate: true };
  // fetch() rejects with a TypeError when no response arrived at all.
  if (error instanceof TypeError) return { message: 'pos.error.no_response', translate: true };
  return { message: 'pos.error.generic', translate: true };
};
