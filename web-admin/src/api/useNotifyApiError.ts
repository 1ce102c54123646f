import { useCallback } from 'react';
import { useLogoutIfAccessDenied, useNotify } from 'react-admin';
import { errorMessage } from './errors';

/**
 * Shows a failed call the way the seed asks (000 §8) through react-admin's notify, after giving the
 * authProvider the chance to end the session when it is gone (a 401; authProvider.checkError). Outside <Admin> (the public pages) there is
 * no authProvider in context and nothing is logged out.
 */
export const useNotifyApiError = () => {
  const notify = useNotify();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useCallback(
    async (error: unknown, { checkAccess = true }: { checkAccess?: boolean } = {}) => {
      if (checkAccess && (await logoutIfAccessDenied(error))) return;
      const { message } = errorMessage(error);
      notify(message, { type: 'error', messageArgs: { _: message } });
    },
    [notify, logoutIfAccessDenied],
  );
};

/** Shows a server success text (seeds' own wording) or a translation key. */
export const useNotifySuccess = () => {
  const notify = useNotify();
  return useCallback(
    (message: string | undefined, fallbackKey = 'ra.notification.updated') => {
      const text = message && message.length > 0 ? message : fallbackKey;
      notify(text, { type: 'success', messageArgs: { _: text, smart_count: 1 } });
    },
    [notify],
  );
};
