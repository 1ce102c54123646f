import type { AuthProvider, UserIdentity } from 'react-admin';
import type { z } from 'zod';
import {
  authAdmin,
  type AdminRole,
  type AuthAdmin,
  type adminLoginBody,
  type authenticateTwoFactorBody,
} from '@portal/services/contracts/auth';
import { api } from './api/client';
import { absoluteLoginUrl, clearToken, getToken, setToken } from './api/token';

export const ADMIN_USER_TYPE = 'admin';

type AdminLoginBody = z.input<typeof adminLoginBody>;
type AuthenticateTwoFactorBody = z.input<typeof authenticateTwoFactorBody>;

/** What the sign-in pages do next (seed 000 §4 "Login outcome"). */
export type LoginOutcome =
  | { kind: 'signed-in'; message: string }
  | { kind: 'two-factor'; email: string; message: string };

/**
 * Sign-in is done by the custom /admin-login page, not react-admin's login form, because the page lives
 * outside the /admin basename and may continue on /admin-two-factor-auth.
 */
export const signIn = async (body: AdminLoginBody): Promise<LoginOutcome> => {
  const { data, message } = await api.post<Partial<AuthAdmin>>('/auth/admin-login', body);
  if (data?.access_token) {
    setToken(data.access_token);
    return { kind: 'signed-in', message };
  }
  if (data?.enable_2fa) return { kind: 'two-factor', email: body.email, message };
  throw new Error('pos.error.no_token');
};

export const completeTwoFactor = async (body: Omit<AuthenticateTwoFactorBody, 'user_type'>): Promise<string> => {
  const { data, message } = await api.post<Partial<AuthAdmin>>('/auth/authenticate-2fa', {
    ...body,
    user_type: ADMIN_USER_TYPE,
  });
  if (!data?.access_token) throw new Error('pos.error.no_token');
  setToken(data.access_token);
  return message;
};

/** Identity and permissions both read GET /api/auth/admin; share one request when they run together. */
let inflight: Promise<AuthAdmin> | null = null;
export const fetchAdmin = (): Promise<AuthAdmin> => {
  inflight ??= api
    .get<unknown>('/auth/admin')
    .then((answer) => authAdmin.parse(answer.data))
    .finally(() => {
      inflight = null;
    });
  return inflight;
};

/** Ends the session on the server when a token is still held; never fails. */
const revokeToken = async (): Promise<void> => {
  if (!getToken()) return;
  try {
    await api.post('/auth/logout');
  } catch {
    // The token may already be invalid; the local session ends anyway.
  }
};

/** Idle time-out (seed 000 §9): end the session and reload on the login page. */
export const endSessionAfterIdle = async (): Promise<void> => {
  await revokeToken();
  clearToken();
  window.location.assign(absoluteLoginUrl('idle'));
};

export type AdminIdentity = UserIdentity & Omit<AuthAdmin, 'access_token'>;

export const authProvider: AuthProvider = {
  async login(params: AdminLoginBody) {
    const outcome = await signIn(params);
    if (outcome.kind === 'two-factor') {
      return { redirectTo: `/admin-two-factor-auth?email=${encodeURIComponent(outcome.email)}` };
    }
    return { redirectTo: '/' };
  },

  async logout() {
    await revokeToken();
    clearToken();
    // An absolute URL makes react-admin do a full page load, leaving the /admin basename (seed: logout reloads).
    return absoluteLoginUrl();
  },

  async checkAuth() {
    if (getToken()) return;
    throw { redirectTo: absoluteLoginUrl(), message: false };
  },

  async checkError(error: unknown) {
    // Only a session that is gone logs the admin out: a 401, or a 403 saying this token is no
    // admin's. A 403 for a forbidden action (finance asking for a write) keeps the session: the
    // caller shows the server's message, and the admin carries on.
    if (endsSession(error)) {
      clearToken();
      throw { redirectTo: absoluteLoginUrl(), message: false, logoutUser: true };
    }
  },

  async getIdentity(): Promise<AdminIdentity> {
    const { access_token: _ignored, ...admin } = await fetchAdmin();
    return { ...admin, id: admin.uuid, fullName: admin.name };
  },

  async getPermissions(): Promise<AdminRole | undefined> {
    if (!getToken()) return undefined;
    const admin = await fetchAdmin();
    return admin.role;
  },

  /**
   * Finance staff read and never write (BUSINESS-RULES.md §6): react-admin then hides every
   * Create, Edit and Delete button and refuses the create and edit pages themselves, even when
   * reached by their address (a Save there would be refused with 403, which ends the session).
   */
  async canAccess({ action }: { action: string }): Promise<boolean> {
    if (!getToken()) return false;
    if (!WRITE_ACTIONS.has(action)) return true;
    return (await fetchAdmin()).role === 'admin';
  },
};

const WRITE_ACTIONS = new Set(['create', 'edit', 'delete', 'clone']);

const isStatus = (error: unknown, status: number): boolean =>
  typeof error === 'object' && error !== null && 'status' in error && error.status === status;

/** The api's 403 for a token that is not an admin's (auth/guards.ts requireAdmin): this session cannot use the back office. */
const NOT_AN_ADMIN = 'This is for administrators only.';

const serverMessage = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const body = 'body' in error ? (error.body as { message?: unknown } | undefined) : undefined;
  if (typeof body?.message === 'string') return body.message;
  return 'message' in error && typeof error.message === 'string' ? error.message : undefined;
};

/** A 401 (no session, expired or revoked), or a 403 refusing the account itself rather than an action. */
export const endsSession = (error: unknown): boolean => isStatus(error, 401) || (isStatus(error, 403) && serverMessage(error) === NOT_AN_ADMIN);
