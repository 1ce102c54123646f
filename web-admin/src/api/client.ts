import { fetchUtils } from 'react-admin';
import { getToken } from './token';

/** Every portal answer is `{ success, message, data }` (API.md §1, contracts/http.ts `envelope`). */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/**
 * fetchJson with the bearer token. Used by the react-admin dataProvider and by the custom pages
 * calling /api/auth/*. Rejects with react-admin's HttpError(message, status, body) on non-2xx.
 */
export const httpClient = (url: string, options: fetchUtils.Options = {}) => {
  const headers = new Headers(options.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return fetchUtils.fetchJson(url, { ...options, headers });
};

const API_BASE = '/api';

const call = async <T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> => {
  const { json } = await httpClient(`${API_BASE}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return json as Envelope<T>;
};

export const api = {
  get: <T>(path: string) => call<T>('GET', path),
  // Always send a JSON body: Fastify refuses an empty body declared as application/json.
  post: <T>(path: string, body: unknown = {}) => call<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => call<T>('PUT', path, body),
};
