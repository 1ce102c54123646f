import { startPage } from './start-page';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CssBaseline, GlobalStyles, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { theme } from './theme';
import { App } from './App';
import { queryClient } from './query-client';

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {/* Toasts open below the app bar (60 / 64 px, MemberLayout), not over the member's name and Log out. */}
        <GlobalStyles styles={(t) => ({ '.notistack-SnackbarContainer.toasts-below-app-bar': { top: 68, [t.breakpoints.up('sm')]: { top: 72 } } })} />
        <QueryClientProvider client={queryClient}>
          <SnackbarProvider maxSnack={3} autoHideDuration={5000} anchorOrigin={{ vertical: 'top', horizontal: 'right' }} classes={{ containerAnchorOriginTopRight: 'toasts-below-app-bar' }} preventDuplicate>
            <App />
          </SnackbarProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </StrictMode>,
  );
}

// The page is drawn once, with its code and data, when they come quickly; otherwise with its loaders as before.
void startPage.then(render, render);
