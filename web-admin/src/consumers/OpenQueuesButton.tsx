import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'react-admin';
import { api } from '../api/client';
import { useNotifyApiError } from '../api/useNotifyApiError';

/**
 * Bull Board is a page of its own at /admin/queues: a page load carries no bearer token, so this
 * first asks the api for the short-lived, path-scoped cookie (docs/operations.md), then opens it.
 */
export const OpenQueuesButton = () => {
  const notifyError = useNotifyApiError();
  const open = useMutation({
    mutationFn: () => api.post<{ path: string }>('/admin/queues/session'),
    onSuccess: ({ data }) => window.open(data.path, '_blank', 'noopener'),
    onError: (error) => notifyError(error),
  });
  return (
    <Button label="pos.consumers.open_queues" variant="outlined" onClick={() => open.mutate()} disabled={open.isPending} data-testid="open-queues">
      <OpenInNewIcon />
    </Button>
  );
};
