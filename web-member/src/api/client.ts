import { getToken } from '../auth/token';
import { endSession } from '../auth/session';
import { toast } from '../lib/notify';
import { randomId } from '../lib/uuid';

/** Base path of the portal API (same origin; the Vite dev server proxies it). */
export const API_BASE = '/api';

/** The envelope of every successful answer (HTTP 200). */
export interface ApiEnvelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** Thrown after the global handler has already told the user what went wrong. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const FALLBACK_ERROR = 'Something went wrong. Please try again.';
export const NO_RESPONSE = 'Response not found';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Skip the error toast (the error is still thrown, 401/403 still end the session). */
  quiet?: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The message the seed's global handler shows for a failed answer (seed 000 §8). */
export function errorMessage(status: number, body: unknown): string {
  if (isRecord(body)) {
    if (status === 422 && isRecord(body.errors)) {
      for (const messages of Object.values(body.errors)) {
        const first = Array.isArray(messages) ? messages[0] : messages;
        if (typeof first === 'string' && first) return first;
      }
    }
    if (typeof body.message === 'string' && body.message) return body.message;
  }
  return FALLBACK_ERROR;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<ApiEnvelope<T>> {
  const token = getToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== 'GET') headers['Idempotency-Key'] = randomId();

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body; // the browser sets the multipart boundary
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { method, headers, body, signal: options.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    if (!options.quiet) toast.error(NO_RESPONSE);
    throw new ApiError(NO_RESPONSE, null, null);
  }

  const payload = await readBody(res);
  if (res.status === 200) return payload as ApiEnvelope<T>;

  const message = errorMessage(res.status, payload);
  if (res.status === 401 || res.status === 403) {
    // A session that the server no longer accepts ends here. Without a token there is no
    // session to end (e.g. wrong password on the login form), so the message is just shown.
    if (token) {
      endSession(message);
      throw new ApiError(message, res.status, payload);
    }
  }
  if (!options.quiet) {
    if (res.status === 422 || res.status === 409 || res.status === 404) toast.warning(message);
    else toast.error(message);
  }
  throw new ApiError(message, res.status, payload);
}

export const api = {
  get: <T>(path: string, o?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, o),
  post: <T>(path: string, body?: unknown, o?: RequestOptions) => request<T>('POST', path, { ...o, body }),
  put: <T>(path: string, body?: unknown, o?: RequestOptions) => request<T>('PUT', path, { ...o, body }),
  patch: <T>(path: string, body?: unknown, o?: RequestOptions) => request<T>('PATCH', path, { ...o, body }),
  delete: <T>(path: string, o?: RequestOptions) => request<T>('DELETE', path, o),
};
