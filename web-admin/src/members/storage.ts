/** A photo stored by the api (`storage/photos/...`) as the browser fetches it. */
export const storageUrl = (path: string | null | undefined): string | undefined => {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  return `/${path.replace(/^\/+/, '')}`;
};
