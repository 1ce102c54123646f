import type { ReactNode } from 'react';
import { Alert, Box, Card, CardContent, CardHeader, Skeleton, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { usePermissions, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { AdminMemberDetail } from '@portal/services/contracts/members';
import { api } from '../api/client';
import { errorMessage } from '../api/errors';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';

/** The member the show page is about. */
export const useMember = () => useRecordContext<AdminMemberDetail>();

/** True when the signed-in staff member may change things (the admin role; finance reads only). */
export const useCanWrite = () => {
  const { permissions } = usePermissions();
  return permissions === 'admin';
};

/**
 * Seed 001 §2.10: most panels are usable only for an active member; an inactive one shows 'This user
 * is Inactive' ('User data loading' while the member loads).
 */
export const ActiveOnly = ({ children }: { children: ReactNode }) => {
  const member = useMember();
  const translate = useTranslate();
  if (!member) return <Alert severity="info">{translate('pos.members.loading')}</Alert>;
  if (!member.status) return <Alert severity="warning" data-testid="member-inactive">{translate('pos.members.inactive')}</Alert>;
  return <>{children}</>;
};

/** A titled card inside a panel. */
export const Section = ({ title, children, action, testId }: { title: string; children: ReactNode; action?: ReactNode; testId?: string }) => {
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid={testId}>
      <CardHeader title={translate(title)} action={action} slotProps={{ title: { variant: 'subtitle1', fontWeight: 600 } }} sx={{ pb: 0 }} />
      <CardContent>{children}</CardContent>
    </Card>
  );
};

/** A small figure card: label and value. */
export const Figure = ({ label, value, hint, testId }: { label: string; value: ReactNode; hint?: ReactNode; testId?: string }) => {
  const translate = useTranslate();
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Typography variant="caption" color="text.secondary" sx={{ textTransform: 'uppercase', letterSpacing: 0.4 }}>
          {translate(label)}
        </Typography>
        <Typography variant="h6" component="div" sx={{ fontWeight: 600 }}>
          {value}
        </Typography>
        {hint ? (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
};

export const FigureGrid = ({ children }: { children: ReactNode }) => (
  <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, mb: 2 }}>{children}</Box>
);

/** A label/value line of a summary card. */
export const Line = ({ label, value }: { label: string; value: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', gap: 2, py: 0.5, borderBottom: 1, borderColor: 'divider', '&:last-child': { borderBottom: 0 } }}>
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 160 }}>
        {translate(label)}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: 'break-word' }}>
        {value === null || value === undefined || value === '' ? translate('pos.members.not_available') : value}
      </Typography>
    </Box>
  );
};

/** Skeleton while a portal read loads, its error if it failed, else the content. */
export const Loaded = ({ query, children, height = 120 }: { query: { isPending: boolean; error: unknown }; children: () => ReactNode; height?: number }) => {
  const translate = useTranslate();
  if (query.error) {
    const { message, translate: isKey } = errorMessage(query.error);
    return <Alert severity="error">{isKey ? translate(message) : message}</Alert>;
  }
  if (query.isPending) return <Skeleton variant="rounded" height={height} />;
  return <>{children()}</>;
};

/**
 * Runs one of the portal's member command paths (the same the member app and the seeds' admin use),
 * shows the server's own success message (seed 002 §8) or its error, and refreshes the record and
 * every panel read.
 */
export const useMemberCommand = () => {
  const refresh = useRefresh();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  return useMutation({
    mutationFn: async ({ method, path, body }: { method: 'POST' | 'PUT'; path: string; body: unknown }) =>
      method === 'POST' ? api.post<unknown>(path, body) : api.put<unknown>(path, body),
    onSuccess: (json) => {
      notifySuccess(json.message);
      refresh();
    },
    onError: (error) => void notifyError(error),
  });
};
