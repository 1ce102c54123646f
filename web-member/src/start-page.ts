import { startPageData } from './page-data';
import { queryClient } from './query-client';
import { startLoadingPage } from './routes';

/**
 * How long the first render waits for the opened page's code and data. The api answers a member's
 * page in ~10 ms: waiting that long draws the page once, complete, where rendering at once drew the
 * loader, then the layout with skeletons, then the page (three renders of the same screen, the
 * main cost of a reload: issue 11 item 7). A slow network gets the loaders after this long.
 */
const WAIT_FOR_PAGE_MS = 300;

// Imported first by main.tsx, so the opened page's code and its api calls are asked for before
// React and MUI are evaluated and the layout is rendered, instead of after (React.lazy asks for a
// page's code only when it renders, and the page asks for its data only once that code has run).
const ready = Promise.all([startLoadingPage(window.location.pathname), startPageData(queryClient, window.location)]);

/** Settles when the page's code and data are in, or after WAIT_FOR_PAGE_MS, whichever is first. */
export const startPage: Promise<unknown> = Promise.race([ready, new Promise((resolve) => setTimeout(resolve, WAIT_FOR_PAGE_MS))]);
