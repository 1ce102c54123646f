/** The bearer token lives in localStorage under one product-specific key (seed 000 §9). */
export const TOKEN_KEY = 'herbal_portal_token';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

/**
 * The signed-in account as last answered, kept beside the token (and cleared with it) so that a
 * reload shows the member area at once and every page's calls start together, instead of all
 * waiting for GET /auth/user first (issue 11 item 7). It is only shown meanwhile: the account is
 * asked for again on every load, and the server checks the token on every call.
 */
export const USER_KEY = 'herbal_portal_user';

export function getStoredUser<User>(): User | undefined {
  try {
    const stored = localStorage.getItem(USER_KEY);
    return stored && getToken() ? (JSON.parse(stored) as User) : undefined;
  } catch {
    return undefined;
  }
}

export function storeUser(user: unknown): void {
  try {
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } catch {
    /* storage full or unavailable: the next load asks first, as before */
  }
}

export function clearToken(): void {
  try {
    localStorage.removeItem(USER_KEY);
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage unavailable: nothing to clear */
  }
}
