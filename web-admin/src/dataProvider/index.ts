import simpleRestProvider from 'ra-data-simple-rest';
import { httpClient } from '../api/client';

/**
 * The back-office resources speak ra-data-simple-rest under /api/admin (API.md §2, STYLE.md rule 12).
 * The bearer token is added by `httpClient` (STYLE.md rule 16).
 */
export const dataProvider = simpleRestProvider('/api/admin', httpClient);
