import type { AuthUser } from '@portal/services/contracts/auth';
import { setToken } from './token';

const withEmail = (path: string, email: string) => `${path}?email=${encodeURIComponent(email)}`;

/** Where the member goes once signed in (token stored): dashboard when paid, else welcome. */
export function homeFor(user: Pick<AuthUser, 'payment'>): string {
  return user.payment === 'approved' ? '/user/dashboard' : '/welcome';
}

/**
 * The login outcome of seed 000 §4: unconfirmed e-mail → confirmation; 2FA on → 2FA screen;
 * otherwise the token is stored and the member goes home. Returns the path to navigate to.
 */
export function completeLogin(user: AuthUser): string {
  if (!user.email_verified_at) return withEmail('/email-confirmation', user.email);
  if (user.enable_2fa) return withEmail('/two-factor-auth', user.email);
  if (user.access_token) setToken(user.access_token);
  return homeFor(user);
}

/** After 2FA success: the answer is the user with its access token. */
export function completeTwoFactor(user: AuthUser): string {
  if (user.access_token) setToken(user.access_token);
  return homeFor(user);
}
