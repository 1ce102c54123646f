import { closeSnackbar, enqueueSnackbar, type VariantType } from 'notistack';

/**
 * Toasts from anywhere (the api client runs outside React). Works once <SnackbarProvider> is
 * mounted, which main.tsx does at the root.
 */
export function notify(message: string, variant: VariantType = 'default'): void {
  // A step that succeeded makes the earlier warnings stale ("These credentials do not match" must
  // not sit on the welcome page after a good sign-in): a success replaces whatever is showing.
  if (variant === 'success') closeSnackbar();
  enqueueSnackbar(message, { variant });
}

export const toast = {
  success: (m: string) => notify(m, 'success'),
  error: (m: string) => notify(m, 'error'),
  warning: (m: string) => notify(m, 'warning'),
  info: (m: string) => notify(m, 'info'),
};

/**
 * Runs an API call and toasts its success message. Failures are already shown by the api client
 * (seed 000 §8), so they only make this return false.
 */
export async function toastOnSuccess(call: () => Promise<{ message?: string }>, fallback: string): Promise<boolean> {
  try {
    const res = await call();
    toast.success(res.message || fallback);
    return true;
  } catch {
    return false;
  }
}
