import { beforeAll, describe, expect, it } from 'vitest';
import { LINK_LIFETIME_SECONDS, configureStoredFiles, mayServeStoredFile, storedFileLink } from './stored-files';

/** Private file links are bearer links only for a few minutes (docs/security.md, V12). */
const MINUTE = 60_000;
const issuedAt = Date.UTC(2026, 10, 25, 12, 0, 30);
let link: string;
beforeAll(() => {
  configureStoredFiles('a test secret that is long enough for the signing key');
  link = storedFileLink('storage/receipts/0b7e6c1a-6f1e-4a43-9a59-1f9a3a2f1d10.jpg', issuedAt);
});

const queryOf = (link: string) => Object.fromEntries(new URL(link, 'http://portal.test/').searchParams);
const pathOf = (link: string) => `/${link.split('?')[0]}`;

describe('signed links to private stored files', () => {
  it('open the file for five minutes after they were answered, and not after six', () => {
    expect(LINK_LIFETIME_SECONDS).toBeLessThanOrEqual(5 * 60);
    expect(mayServeStoredFile(pathOf(link), queryOf(link), issuedAt)).toBe(true);
    expect(mayServeStoredFile(pathOf(link), queryOf(link), issuedAt + 5 * MINUTE)).toBe(true);
    expect(mayServeStoredFile(pathOf(link), queryOf(link), issuedAt + 6 * MINUTE + 1)).toBe(false);
    // What the previous lifetime (30–40 minutes) allowed is refused now.
    expect(mayServeStoredFile(pathOf(link), queryOf(link), issuedAt + 20 * MINUTE)).toBe(false);
  });

  it('are signed afresh on every read, the same within a minute', () => {
    expect(storedFileLink('storage/receipts/0b7e6c1a-6f1e-4a43-9a59-1f9a3a2f1d10.jpg', issuedAt + 10_000)).toBe(link);
    const later = storedFileLink('storage/receipts/0b7e6c1a-6f1e-4a43-9a59-1f9a3a2f1d10.jpg', issuedAt + 20 * MINUTE);
    expect(later).not.toBe(link);
    expect(mayServeStoredFile(pathOf(later), queryOf(later), issuedAt + 20 * MINUTE)).toBe(true);
  });

  it('name one file: the signature of one opens no other, and a changed expiry breaks it', () => {
    const other = '/storage/receipts/11111111-2222-4333-8444-555555555555.jpg';
    expect(mayServeStoredFile(other, queryOf(link), issuedAt)).toBe(false);
    expect(mayServeStoredFile(pathOf(link), { ...queryOf(link), expires: String(Number(queryOf(link).expires) + 3600) }, issuedAt)).toBe(false);
  });

  it('leave catalogue images public and unsigned', () => {
    expect(storedFileLink('storage/products/0b7e6c1a-6f1e-4a43-9a59-1f9a3a2f1d10.png', issuedAt)).toBe('storage/products/0b7e6c1a-6f1e-4a43-9a59-1f9a3a2f1d10.png');
    expect(mayServeStoredFile('/storage/products/0b7e6c1a-6f1e-4a43-9a59-1f9a3a2f1d10.png', {}, issuedAt)).toBe(true);
  });
});
