import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stored files (docs/security.md, "Uploads and stored files"). Catalogue images (products,
 * incentives, ranks) are public. Receipts and member photos are private: the API hands out their
 * paths with a short-lived signature (5–6 minutes) (`storage/receipts/<file>?expires=<unix>&signature=<hmac>`)
 * to whoever may read the record that names them (the owner, admins and finance, and for a photo
 * the member's upline in the genealogy screens); /storage answers 404 to a private file without a
 * valid, unexpired signature.
 *
 * The key is derived from the api's JWT secret when the app is built (`configureStoredFiles`), so a
 * link signed by one api instance is valid on the others.
 */
export const PRIVATE_FOLDERS = new Set(['receipts', 'photos']);
export const PUBLIC_FOLDERS = new Set(['products', 'incentives', 'ranks']);
/**
 * A signature is good for 5 to 6 minutes (docs/security.md, V12: a forwarded or leaked link is a
 * bearer link only that long). Every answer that names a private file signs it afresh, so a screen
 * that reads its record again (on focus, on navigating) has fresh links; an image already shown stays
 * shown (the browser keeps its private copy for the same 5 minutes). The expiry is rounded up to the
 * minute so one record reads the same across a page's requests within that minute.
 */
export const LINK_LIFETIME_SECONDS = 5 * 60;
const ROUND_SECONDS = 60;

let signingKey: Buffer | null = null;

export function configureStoredFiles(secret: string): void {
  signingKey = createHmac('sha256', secret).update('stored-files/v1').digest();
}

function signature(path: string, expires: number): string {
  if (!signingKey) throw new Error('configureStoredFiles was not called');
  return createHmac('sha256', signingKey).update(`${path}\n${expires}`).digest('base64url');
}

/** A stored file's path (`storage/<folder>/<file>`, with or without a leading slash) as the API shows it: private ones signed. */
export function storedFileLink<T extends string | null | undefined>(storedPath: T, now = Date.now()): T {
  if (!storedPath) return storedPath;
  const bare = storedPath.replace(/^\/+/, '').split('?')[0] ?? '';
  const folder = bare.split('/')[1] ?? '';
  if (!PRIVATE_FOLDERS.has(folder)) return storedPath;
  const expires = Math.ceil((now / 1000 + LINK_LIFETIME_SECONDS) / ROUND_SECONDS) * ROUND_SECONDS;
  const leading = storedPath.startsWith('/') ? '/' : '';
  return `${leading}${bare}?expires=${expires}&signature=${signature(`/${bare}`, expires)}` as T;
}

/** True when `/storage/<folder>/<file>` may be served for this query: public, or private with a valid signature. */
export function mayServeStoredFile(urlPath: string, query: Record<string, unknown>, now = Date.now()): boolean {
  const match = /^\/storage\/([a-z-]+)\/[A-Za-z0-9_-]+\.(jpg|png|webp)$/.exec(urlPath);
  if (!match) return false;
  const folder = match[1] ?? '';
  if (PUBLIC_FOLDERS.has(folder)) return true;
  if (!PRIVATE_FOLDERS.has(folder)) return false;
  const expires = Number(query.expires);
  const given = typeof query.signature === 'string' ? Buffer.from(query.signature) : null;
  if (!given || !Number.isSafeInteger(expires) || expires * 1000 < now) return false;
  const expected = Buffer.from(signature(urlPath, expires));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
