import { startPageData } from './page-data';
import { queryClient } from './query-client';
import { startLoadingPage } from './routes';

// Imported first by main.tsx, so the opened page's code and its api calls are asked for before
// React and MUI are evaluated and the layout is rendered, instead of after (React.lazy asks for a
// page's code only when it renders, and the page asks for its data only once that code has run).
startLoadingPage(window.location.pathname);
startPageData(queryClient, window.location);
