import { storageUrl as sharedStorageUrl } from '@portal/web-shared/lib/storage';

/** Uploaded files come back as `storage/<folder>/<file>`, served by the api at /storage/...; null when there is none. */
export function storageUrl(path: string | null | undefined): string | null {
  return sharedStorageUrl(path) ?? null;
}
