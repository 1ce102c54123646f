import { usePortalQuery } from '../api/usePortalQuery';
import { Box, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatNaira } from '../common/NairaField';

export type WithdrawalTotal = { total: number; successful: number; processing: number; pending: number; count: number };

/** The money that left the wallets (GET /api/withdrawals/total): paid, sent and queued; failed ones came back. */
export const useWithdrawalTotal = () =>
  usePortalQuery<WithdrawalTotal>('/withdrawals/total');

/** Seed 002 tab 1's total-withdrawals counter, above the list. */
export const WithdrawalTotals = () => {
  const translate = useTranslate();
  const { data, isPending } = useWithdrawalTotal();
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center', '&:last-child': { pb: 2 } }}>
        <Box>
          <Typography variant="subtitle2" color="text.secondary">
            {translate('pos.finance.withdrawals.total')}
          </Typography>
          {isPending || !data ? (
            <Skeleton width={160} height={40} />
          ) : (
            <Typography variant="h5" sx={{ fontWeight: 600 }} data-testid="withdrawals-total">
              {formatNaira(data.total)}
            </Typography>
          )}
          {data && (
            <Typography variant="body2" color="text.secondary">
              {translate('pos.finance.withdrawals.total_help', { count: data.count })}
            </Typography>
          )}
        </Box>
        {data && (
          <Stack direction="row" spacing={4}>
            {(
              [
                ['pos.finance.withdrawals.paid', data.successful],
                ['pos.finance.withdrawals.sent', data.processing],
                ['pos.finance.withdrawals.queued', data.pending],
              ] as const
            ).map(([label, value]) => (
              <Box key={label}>
                <Typography variant="caption" color="text.secondary">
                  {translate(label)}
                </Typography>
                <Typography variant="body1">{formatNaira(value)}</Typography>
              </Box>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};
