/** Uploaded files come back as `storage/<folder>/<file>`, served by the api at /storage/... */
export function storageUrl(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  return `/${path.replace(/^\/+/, '')}`;
}
