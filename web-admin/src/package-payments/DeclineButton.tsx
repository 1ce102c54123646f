import ThumbDownIcon from '@mui/icons-material/ThumbDown';
import { Stack, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { httpClient } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';

/**
 * "Confirm Payment Decline": the catalogue's PATCH /payments/package-payments/{id}/disapprove with
 * the reason the member will see (the command takes one; empty gives the server's default).
 */
export const DeclineButton = (_props: { label?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const refresh = useRefresh();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: async (id: string) => {
      const body = reason.trim() ? { reason: reason.trim() } : {};
      const { json } = await httpClient(`/api/payments/package-payments/${encodeURIComponent(id)}/disapprove`, { method: 'PATCH', body: JSON.stringify(body) });
      return json as { message?: string };
    },
    onSuccess: (json) => {
      notifySuccess(json?.message);
      setReason('');
      refresh();
    },
    onError: (error) => notifyError(error),
    onSettled: () => setOpen(false),
  });
  if (!record) return null;
  return (
    <>
      <Button
        label="resources.package-payments.action.decline"
        color="error"
        disabled={mutation.isPending}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        <ThumbDownIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={mutation.isPending}
        title="pos.approvals.confirm.decline_title"
        content={
          <Stack spacing={2} sx={{ pt: 1, minWidth: { sm: 420 } }}>
            <Typography variant="body2">{translate('pos.approvals.confirm.decline_content')}</Typography>
            <TextField
              name="reason"
              label={translate('pos.approvals.confirm.reason')}
              helperText={translate('pos.approvals.confirm.reason_helper')}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              onClick={(event) => event.stopPropagation()}
              inputProps={{ maxLength: 500 }}
              multiline
              minRows={2}
              fullWidth
              autoFocus
            />
          </Stack>
        }
        confirmColor="warning"
        onConfirm={() => mutation.mutate(String(record.id))}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
