import { usePortalQuery } from '../api/usePortalQuery';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button as MuiButton, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import AccountBalanceIcon from '@mui/icons-material/AccountBalanceOutlined';
import CallMadeIcon from '@mui/icons-material/CallMade';
import RefreshIcon from '@mui/icons-material/Refresh';
import SavingsIcon from '@mui/icons-material/SavingsOutlined';
import WalletIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import { Button, Title, useBasename, useTranslate } from 'react-admin';
import { errorMessage } from '../api/errors';
import { formatNaira } from '../common/NairaField';
import { useWithdrawalTotal } from '../withdrawals/WithdrawalTotals';
import { FigureCard } from './FigureCard';

type CompanyFigures = { total_company_wallet: number; total_withdrawals: number; balance: number };
type ProviderBalance = { available_balance: number; currency: string };

/**
 * Company Finance (seed 001 §2.9): the company wallet (every approved payment received), total
 * withdrawals (every successful withdrawal and payout) and the balance between them; beside them
 * the payment provider's own balance, which pays the transfers, with a Reload button; below, the
 * money out of member wallets by where it is.
 */
export const CompanyFinance = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const company = usePortalQuery<CompanyFigures>('/bonuses/total-company-wallet');
  const provider = usePortalQuery<ProviderBalance>('/payments/provider-wallet-balance', { retry: false });
  const outflow = useWithdrawalTotal();
  const explain = (error: unknown) => {
    const { message, translate: isKey } = errorMessage(error);
    return isKey ? translate(message) : message;
  };

  return (
    <Box sx={{ mt: 2 }}>
      <Title title="pos.finance.company.title" />
      {company.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {explain(company.error)}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' } }}>
        <FigureCard
          label="pos.finance.company.wallet"
          value={company.data?.total_company_wallet}
          help={translate('pos.finance.company.wallet_help')}
          icon={<WalletIcon fontSize="small" />}
          loading={company.isPending}
          testId="company-wallet"
        />
        <FigureCard
          label="pos.finance.company.withdrawals"
          value={company.data?.total_withdrawals}
          help={translate('pos.finance.company.withdrawals_help')}
          icon={<CallMadeIcon fontSize="small" />}
          loading={company.isPending}
          testId="company-withdrawals"
        />
        <FigureCard
          label="pos.finance.company.balance"
          value={company.data?.balance}
          help={translate('pos.finance.company.balance_help')}
          icon={<SavingsIcon fontSize="small" />}
          loading={company.isPending}
          testId="company-balance"
          tone="primary"
        />
        <FigureCard
          label="pos.finance.company.provider"
          value={provider.isError ? null : provider.data?.available_balance}
          help={provider.isError ? explain(provider.error) : translate('pos.finance.company.provider_help')}
          icon={<AccountBalanceIcon fontSize="small" />}
          loading={provider.isPending}
          testId="provider-balance"
          action={
            <Button
              label="pos.finance.company.reload"
              onClick={() => provider.refetch()}
              disabled={provider.isFetching}
              variant="outlined"
              size="small"
            >
              {provider.isFetching ? <CircularProgress size={16} /> : <RefreshIcon />}
            </Button>
          }
        />
      </Box>
      <Card sx={{ mt: 2 }}>
        <CardContent sx={{ p: 2.5 }}>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5, flexWrap: 'wrap', gap: 1 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {translate('pos.finance.company.outflow')}
            </Typography>
            <MuiButton component={RouterLink} to={`${basename}/withdrawals`} size="small">
              {translate('pos.finance.company.view_withdrawals')}
            </MuiButton>
          </Stack>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(4, 1fr)' } }}>
            {(
              [
                ['pos.finance.withdrawals.total', outflow.data?.total, 'outflow-total'],
                ['pos.finance.company.outflow_paid', outflow.data?.successful, 'outflow-paid'],
                ['pos.finance.company.outflow_sent', outflow.data?.processing, 'outflow-sent'],
                ['pos.finance.company.outflow_queued', outflow.data?.pending, 'outflow-queued'],
              ] as const
            ).map(([label, value, testId]) => (
              <Box key={label}>
                <Typography variant="body2" color="text.secondary">
                  {translate(label)}
                </Typography>
                <Typography variant="h6" component="p" data-testid={testId}>
                  {outflow.isPending ? '…' : formatNaira(value)}
                </Typography>
              </Box>
            ))}
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
};
