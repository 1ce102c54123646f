import { QueryClient } from '@tanstack/react-query';
import { freshAfterEarlyStart } from './page-data';

/** The app's one query cache (main.tsx provides it; start-page.ts fills the opened page's queries first). */
export const queryClient = new QueryClient({
  defaultOptions: {
    // The api client already told the user about a failure; retrying would repeat the toast.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: freshAfterEarlyStart },
    mutations: { retry: false },
  },
});
