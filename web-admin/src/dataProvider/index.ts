import simpleRestProvider from 'ra-data-simple-rest';
import { httpClient } from '../api/client';
import { getEventsPage } from '../event-log/eventsPage';

/**
 * The back-office resources speak ra-data-simple-rest under /api/admin (API.md §2, STYLE.md rule 12).
 * The bearer token is added by `httpClient` (STYLE.md rule 16). The event log is paged by keyset
 * instead of counted (event-log/eventsPage.ts).
 */
const simpleRest = simpleRestProvider('/api/admin', httpClient);

export const dataProvider = {
  ...simpleRest,
  getList: (resource: string, params: Parameters<typeof simpleRest.getList>[1]) => (resource === 'events' ? getEventsPage(params) : simpleRest.getList(resource, params)),
} as typeof simpleRest;
