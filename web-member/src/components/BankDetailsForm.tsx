import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, InputAdornment, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import Grid, { type GridProps } from '@mui/material/Grid';
import CheckCircle from '@mui/icons-material/CheckCircle';
import LockOutlined from '@mui/icons-material/LockOutlined';
import AccountBalanceOutlined from '@mui/icons-material/AccountBalanceOutlined';
import type { ProfileDetails } from '@portal/services/contracts/profile';
import { accountNumberInput, cleanedField } from '@portal/web-shared/lib/digits';
import { profileMessages } from '@portal/services/contracts/profile-messages';
import { paymentsApi } from '../api/payments';
import { profileApi } from '../api/profile';
import { queryKeys, useBanks } from '../api/queries';
import { bankEditable, hasBankAccount } from '../lib/bank-account';
import { lazyResolver, loadWhenTouched } from '../lib/lazy-resolver';
import { toast } from '../lib/notify';
import type { BankFormInput } from './bank-form';

/** The form's zod schema (./bank-form.ts) loads when the member turns to the form: zod is not on the page's first screen. */
const bankResolver = lazyResolver<BankFormInput>(async () => (await import('./bank-form')).bankResolver);

interface Verified {
  bank_code: string;
  bank_name: string;
  account_number: string;
  account_name: string;
}

export { bankEditable, hasBankAccount };

/** The withdrawal account on file, or a note that there is none yet. */
export function BankAccountSummary({ details, loading = false }: { details: ProfileDetails | null | undefined; loading?: boolean }) {
  if (loading) {
    return (
      <Box>
        <Skeleton width="60%" height={28} />
        <Skeleton width="40%" height={24} />
      </Box>
    );
  }
  if (!hasBankAccount(details)) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="bank-account-none">
        You have not added a bank account yet.
      </Typography>
    );
  }
  const rows: Array<[string, string | null]> = [
    ['Bank', details.bank_name],
    ['Account number', details.bank_account_number],
    ['Account name', details.bank_account_name],
  ];
  return (
    <Box
      data-testid="bank-account-summary"
      sx={{ p: 2, borderRadius: 2, bgcolor: '#f4faf6', border: 1, borderColor: '#d5ecdc', display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fit, minmax(150px, 1fr))' } }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" component="div">
            {label}
          </Typography>
          <Typography sx={{ fontWeight: 650, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' }}>{value || '—'}</Typography>
        </Box>
      ))}
    </Box>
  );
}

interface Props {
  memberId: string;
  details: ProfileDetails | null | undefined;
  loading?: boolean;
  /** Grid size of the bank and account-number fields (side by side from sm up by default). */
  fieldSize?: GridProps['size'];
}

/**
 * Bank, account number and the account name the bank gives back (seed 000 §2.3, §2.6, §4, §5):
 * Verify asks the bank for the name, Save stores the verified account. Locked while the member
 * may not change it.
 */
export function BankDetailsForm({ memberId, details, loading = false, fieldSize = { xs: 12, sm: 6 } }: Props) {
  const queryClient = useQueryClient();
  const banks = useBanks();
  const editable = bankEditable(details);
  const saved = hasBankAccount(details) ? details : null;
  const [verified, setVerified] = useState<Verified | null>(null);
  const [verifying, setVerifying] = useState(false);

  const form = useForm<BankFormInput>({
    resolver: bankResolver,
    values: { bank_code: saved?.bank_code ?? '', account_number: saved?.bank_account_number ?? '' },
    resetOptions: { keepDirtyValues: true },
  });
  const [bankCode, accountNumber] = useWatch({ control: form.control, name: ['bank_code', 'account_number'] });
  const err = form.formState.errors;

  const current = verified && verified.bank_code === bankCode && verified.account_number === accountNumber.trim() ? verified : null;
  const savedMatches = saved && saved.bank_code === bankCode && saved.bank_account_number === accountNumber.trim();
  const accountName = current?.account_name ?? (savedMatches ? saved.bank_account_name ?? '' : '');
  const bankName = (code: string) => banks.data?.find((b) => b.code === code)?.bank ?? '';
  const locked = !editable;

  const verify = form.handleSubmit(async ({ bank_code, account_number }) => {
    setVerifying(true);
    try {
      const res = await paymentsApi.verifyBank({ bank_name: bankName(bank_code), account_number, bank_code });
      setVerified({ bank_code: res.data.bank_code, bank_name: res.data.bank_name || bankName(bank_code), account_number, account_name: res.data.account_name });
    } catch {
      setVerified(null);
    } finally {
      setVerifying(false);
    }
  });

  const save = form.handleSubmit(async () => {
    if (!current) return;
    try {
      const res = await profileApi.updateBankDetails(memberId, {
        bank_name: current.bank_name,
        bank_account_number: current.account_number,
        bank_account_name: current.account_name,
        bank_code: current.bank_code,
      });
      toast.success(res.message || profileMessages.bankUpdated);
      setVerified(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.profile(memberId) });
    } catch {
      /* shown by the client */
    }
  });

  if (loading) {
    return (
      <Stack spacing={2}>
        <Skeleton variant="rounded" height={56} />
        <Skeleton variant="rounded" height={56} />
        <Skeleton variant="rounded" height={56} />
      </Stack>
    );
  }

  return (
    <Box component="form" noValidate onSubmit={save} aria-label="Bank details" {...loadWhenTouched(bankResolver)}>
      {locked && (
        <Alert severity="info" icon={<LockOutlined fontSize="inherit" />} sx={{ mb: 2 }} data-testid="bank-locked">
          {saved
            ? 'Your bank details are locked. An administrator must allow changes before you can edit them.'
            : 'Bank details cannot be added right now. An administrator must allow changes first.'}
        </Alert>
      )}
      <Grid container spacing={2}>
        <Grid size={fieldSize}>
          <Controller
            control={form.control}
            name="bank_code"
            render={({ field, fieldState }) => (
              <TextField
                select
                label="Bank"
                required
                name={field.name}
                inputRef={field.ref}
                value={banks.data?.some((b) => b.code === field.value) ? field.value : ''}
                onChange={(e) => field.onChange(e.target.value)}
                onBlur={field.onBlur}
                disabled={locked || banks.isPending}
                error={!!fieldState.error || banks.isError}
                helperText={fieldState.error?.message ?? (banks.isPending ? 'Loading banks…' : banks.isError ? 'Banks could not be loaded.' : undefined)}
                slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
                data-testid="bank-select"
              >
                {(banks.data ?? []).map((b) => (
                  <MenuItem key={b.code} value={b.code}>
                    {b.bank}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        <Grid size={fieldSize}>
          <TextField
            label="Account number"
            required
            autoComplete="off"
            {...cleanedField(form.register('account_number'), accountNumberInput)}
            disabled={locked}
            error={!!err.account_number}
            helperText={err.account_number?.message ?? (locked ? undefined : 'Your 10-digit account number.')}
            slotProps={{ htmlInput: { inputMode: 'numeric', style: { fontVariantNumeric: 'tabular-nums', letterSpacing: '0.04em' } } }}
          />
        </Grid>
        <Grid size={12}>
          <TextField
            label="Account name"
            value={accountName}
            placeholder={locked ? undefined : 'Filled in by verification'}
            disabled={locked}
            helperText={locked ? undefined : current ? 'Verified with the bank.' : 'Press Verify to get the name the bank holds for this account.'}
            slotProps={{
              input: {
                readOnly: true,
                endAdornment: current ? (
                  <InputAdornment position="end">
                    <CheckCircle color="success" fontSize="small" aria-label="Verified" />
                  </InputAdornment>
                ) : undefined,
              },
              inputLabel: { shrink: true },
              htmlInput: { 'data-testid': 'account-name' },
            }}
          />
        </Grid>
      </Grid>
      {!locked && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 2.5, justifyContent: 'flex-end' }}>
          <Button variant="outlined" onClick={() => void verify()} disabled={verifying || form.formState.isSubmitting} startIcon={<AccountBalanceOutlined />}>
            {verifying ? 'Verifying…' : 'Verify account'}
          </Button>
          <Button type="submit" variant="contained" disabled={!current || verifying || form.formState.isSubmitting}>
            {form.formState.isSubmitting ? 'Saving…' : 'Save bank details'}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
