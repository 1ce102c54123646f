/** Uploaded files come back as `storage/<folder>/<file>`, served by the api at /storage/... */
export function storageUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  return `/${path.replace(/^\/+/, '')}`;
}
