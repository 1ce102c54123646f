import { useQuery } from '@tanstack/react-query';
import { Alert, Box, IconButton, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import type { CompanyBank } from '@portal/services/contracts/catalogue';
import { api } from '../api/client';
import { copyText } from '../lib/clipboard';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';

/** GET /banks/all: the company's accounts that members pay into. */
export function useCompanyBanks() {
  return useQuery({
    queryKey: ['catalogue', 'company-banks'],
    queryFn: async ({ signal }) => (await api.get<CompanyBank[]>('/banks/all', { signal, quiet: true })).data,
    staleTime: 5 * 60_000,
  });
}

function CopyRow({ label, value, display, testId }: { label: string; value: string; display?: string; testId?: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', minWidth: 0 }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="caption" color="text.secondary" component="p">
          {label}
        </Typography>
        <Typography sx={{ fontWeight: 650, fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }} data-testid={testId}>
          {display ?? value}
        </Typography>
      </Box>
      <Tooltip title={`Copy ${label.toLowerCase()}`}>
        <IconButton
          size="small"
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={async () => {
            if (await copyText(value)) toast.success(`${label} copied`);
            else toast.warning(`Could not copy; select the ${label.toLowerCase()} and copy it yourself.`);
          }}
        >
          <ContentCopy fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

/**
 * Where and how to pay by bank transfer: the company's accounts, the exact amount and the
 * reference to write on the transfer, each with a copy button. Shown wherever a receipt can be
 * uploaded (welcome page, upgrade; later repurchase and stockist pages).
 */
export function BankTransferDetails({ amount, reference }: { amount: number | null | undefined; reference: string }) {
  const banks = useCompanyBanks();
  return (
    <Box sx={{ p: 1.75, borderRadius: 2, bgcolor: 'action.hover', mb: 2 }} data-testid="bank-transfer-details">
      <Typography variant="body2" sx={{ mb: 1.25 }}>
        Transfer exactly this amount to one of these accounts, with this reference, then upload your receipt.
      </Typography>
      <Stack spacing={1}>
        {amount !== null && amount !== undefined && <CopyRow label="Amount" value={amount.toFixed(2)} display={formatNaira(amount)} testId="transfer-amount" />}
        <CopyRow label="Reference" value={reference} testId="transfer-reference" />
        {banks.isPending ? (
          <Skeleton variant="rounded" height={64} />
        ) : banks.isError ? (
          <Alert severity="warning">The company's bank accounts could not be loaded. Reload the page, or pay by card.</Alert>
        ) : (banks.data ?? []).length === 0 ? (
          <Alert severity="info">The company has not published a bank account yet. Pay by card, or contact the company for its account.</Alert>
        ) : (
          (banks.data ?? []).map((bank) => (
            <Box key={bank.id} sx={{ pt: 1, borderTop: 1, borderColor: 'divider' }} data-testid="company-bank">
              <Typography variant="subtitle2" component="p">
                {bank.bank_name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {bank.bank_account_name}
              </Typography>
              <CopyRow label="Account number" value={bank.bank_account_number} />
            </Box>
          ))
        )}
      </Stack>
    </Box>
  );
}
