import { useNotify, useRedirect } from 'react-admin';

/** After a save: the seeds' own success message (seed 002 §8) instead of react-admin's, then the list. */
export const useSavedNotice = (resource: string, message: string) => {
  const notify = useNotify();
  const redirect = useRedirect();
  return { onSuccess: () => { notify(message, { type: 'success' }); redirect('list', resource); } };
};
