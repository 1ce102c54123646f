/** A photo stored by the api (`storage/photos/...`) as the browser fetches it. */
export { storageUrl } from '@portal/web-shared/lib/storage';
