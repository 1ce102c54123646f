import { type ReactElement, useState } from 'react';
import { Button, Confirm, usePermissions, useRefresh, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { httpClient } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';

/**
 * A list-level action that runs a periodic command by hand (close the due matching cycle, share a
 * due global profit or profit pool) after a confirmation, shows the server's message (what ran, or
 * that it already ran) and refreshes the list. Admins only: finance staff see no such control, and
 * the server answers their write with 403 anyway.
 */
export const RunDueButton = (props: { label: string; path: string; confirmTitle: string; confirmContent: string; icon?: ReactElement; testId?: string }) => {
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const refresh = useRefresh();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [open, setOpen] = useState(false);
  const mutation = useMutation({
    mutationFn: async () => (await httpClient(`/api${props.path}`, { method: 'POST', body: JSON.stringify({}) })).json as { message?: string },
    onSuccess: (json) => {
      notifySuccess(json?.message);
      refresh();
    },
    onError: (error) => notifyError(error),
    onSettled: () => setOpen(false),
  });
  if (permissions !== 'admin') return null;
  return (
    <>
      <Button label={props.label} disabled={mutation.isPending} onClick={() => setOpen(true)} data-testid={props.testId}>
        {props.icon}
      </Button>
      <Confirm
        isOpen={open}
        loading={mutation.isPending}
        title={translate(props.confirmTitle)}
        content={translate(props.confirmContent)}
        onConfirm={() => mutation.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
