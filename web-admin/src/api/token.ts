/** The admin's bearer token lives in localStorage under one key (never shared with the member app). */
export const TOKEN_KEY = 'herbal_portal_admin_token';

export const getToken = (): string | null => {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
};

export const setToken = (token: string): void => window.localStorage.setItem(TOKEN_KEY, token);

export const clearToken = (): void => window.localStorage.removeItem(TOKEN_KEY);

/** Public pages sit outside the /admin basename, so leaving the back office is a full page load. */
export const LOGIN_PATH = '/admin-login';
export const absoluteLoginUrl = (reason?: 'idle'): string =>
  `${window.location.origin}${LOGIN_PATH}${reason ? `?reason=${reason}` : ''}`;
