import type { AuthAdmin, AuthUser, RegisterBody } from '@portal/services/contracts/auth';
import type { PlacementPreview } from '@portal/services/contracts/placement';
import { api } from './client';

/** The member's user type on reset and 2FA calls (admins use their own app). */
export const USER_TYPE = 'user' as const;

/** What GET /auth/user may answer; an admin token yields an admin, which the member app refuses. */
export type CurrentAccount = AuthUser | AuthAdmin;

export const authApi = {
  login: (body: { username: string; password: string }) => api.post<AuthUser>('/auth/login', body),
  register: (body: RegisterBody) => api.post<unknown>('/auth/register', body),
  placementPreview: (query: { referrer: string; placer: string }, signal?: AbortSignal) =>
    api.get<PlacementPreview>(`/auth/placement-preview?${new URLSearchParams(query).toString()}`, { signal, quiet: true }),
  logout: () => api.post<unknown>('/auth/logout', undefined, { quiet: true }),
  resetPasswordLink: (email: string) => api.post<unknown>('/auth/reset-password-link', { email, user_type: USER_TYPE }),
  resetPassword: (body: { code: string; password: string; email: string }) =>
    api.post<unknown>('/auth/reset-password', { ...body, user_type: USER_TYPE }),
  confirmEmail: (body: { email: string; code: string }) => api.post<unknown>('/auth/email-confirmation', body),
  resendEmailConfirmation: (email: string) => api.post<unknown>('/auth/resend-email-confirmation', { email }),
  sendTwoFactorEmail: (email: string) => api.post<unknown>('/auth/send-2fa-verification-email', { email, user_type: USER_TYPE }),
  authenticateTwoFactor: (body: { code: string; email: string }) =>
    api.post<AuthUser>('/auth/authenticate-2fa', { ...body, user_type: USER_TYPE }),
  currentUser: (signal?: AbortSignal) => api.get<CurrentAccount>('/auth/user', { signal }),
  changePasswordLink: (body: { email: string; old_password: string }) =>
    api.post<unknown>('/auth/change-password-link', { ...body, user_type: USER_TYPE }),
  changePassword: (body: { code: string; password: string; email: string }) =>
    api.post<unknown>('/auth/change-password', { ...body, user_type: USER_TYPE }),
};
