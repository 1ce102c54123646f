import { enqueueSnackbar, type VariantType } from 'notistack';

/**
 * Toasts from anywhere (the api client runs outside React). Works once <SnackbarProvider> is
 * mounted, which main.tsx does at the root.
 */
export function notify(message: string, variant: VariantType = 'default'): void {
  enqueueSnackbar(message, { variant });
}

export const toast = {
  success: (m: string) => notify(m, 'success'),
  error: (m: string) => notify(m, 'error'),
  warning: (m: string) => notify(m, 'warning'),
  info: (m: string) => notify(m, 'info'),
};
