import { clearToken } from './token';

const FLASH_KEY = 'herbal_portal_flash';

/** Set while the page is being replaced, so the old page does not consume the message. */
let ending = false;

/**
 * Ends the session: token cleared, full page load of /login (so every cached query and timer goes).
 * An optional message survives the reload and is shown by the login page.
 */
export function endSession(message?: string): void {
  ending = true;
  clearToken();
  if (message) {
    try {
      sessionStorage.setItem(FLASH_KEY, message);
    } catch {
      /* ignore */
    }
  }
  window.location.assign('/login');
}

/** Reads (once) the message left by endSession before the reload. */
export function takeFlashMessage(): string | null {
  if (ending) return null;
  try {
    const m = sessionStorage.getItem(FLASH_KEY);
    if (m) sessionStorage.removeItem(FLASH_KEY);
    return m;
  } catch {
    return null;
  }
}
