import { type ReactElement, useState } from 'react';
import { Button, Confirm, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { httpClient } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';

type Method = 'PUT' | 'PATCH' | 'POST' | 'DELETE';

/**
 * A button that runs one of the catalogue's command paths for the current record (approve, decline,
 * toggle...) after a confirmation dialog, then shows the server's own success message and refreshes
 * the view. `path` builds the URL under /api from the record, e.g.
 *   <CommandButton label="resources.package-payments.action.approve" method="PATCH"
 *     path={(r) => `/payments/package-payments/${r.id}/approve`} confirmTitle="..." confirmContent="..." />
 */
export const CommandButton = (props: {
  label: string;
  method: Method;
  path: (record: Record<string, any>) => string;
  body?: (record: Record<string, any>) => unknown;
  confirmTitle: string;
  confirmContent: string;
  color?: 'primary' | 'error' | 'success' | 'inherit';
  icon?: ReactElement;
  disabled?: (record: Record<string, any>) => boolean;
}) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const refresh = useRefresh();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [open, setOpen] = useState(false);
  const mutation = useMutation({
    mutationFn: async (target: Record<string, any>) => {
      const body = props.body?.(target) ?? {};
      const { json } = await httpClient(`/api${props.path(target)}`, { method: props.method, body: JSON.stringify(body) });
      return json as { message?: string };
    },
    onSuccess: (json) => {
      notifySuccess(json?.message);
      refresh();
    },
    onError: (error) => notifyError(error),
    onSettled: () => setOpen(false),
  });
  if (!record) return null;
  return (
    <>
      <Button
        label={props.label}
        color={props.color ?? 'primary'}
        disabled={mutation.isPending || (props.disabled?.(record) ?? false)}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {props.icon}
      </Button>
      <Confirm
        isOpen={open}
        loading={mutation.isPending}
        title={translate(props.confirmTitle, { _: props.confirmTitle })}
        content={translate(props.confirmContent, { _: props.confirmContent })}
        onConfirm={() => mutation.mutate(record)}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
