import { useEffect, useState } from 'react';
import { Alert, Box, CircularProgress, FormControlLabel, InputAdornment, Switch } from '@mui/material';
import { AutocompleteInput, SaveButton, SimpleForm, TextInput, Toolbar, regex, required, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { BankListItem, VerifiedBank } from '@portal/services/contracts/profile';
import { api } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { ActiveOnly, Line, Loaded, Section, useCanWrite, useMember, useMemberCommand } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { accountNumberInput } from '@portal/web-shared/lib/digits';

const validateAccountNumber = [required(), regex(/^\d{10}$/, 'pos.members.validation.account_number')];

/** Seed 001 §7.3: the account name is read-only, filled from the bank's verification of bank + number. */
const AccountNameFromBank = ({ banks }: { banks: BankListItem[] }) => {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const bankCode = useWatch({ name: 'bank_code' }) as string | undefined;
  const accountNumber = useWatch({ name: 'bank_account_number' }) as string | undefined;
  const [state, setState] = useState<{ verifying: boolean; error: string | null }>({ verifying: false, error: null });
  useEffect(() => {
    const bank = banks.find((b) => b.code === bankCode);
    if (!bank || !/^\d{10}$/.test(accountNumber ?? '')) {
      setValue('bank_account_name', '', { shouldDirty: false });
      setState({ verifying: false, error: null });
      return;
    }
    let cancelled = false;
    setState({ verifying: true, error: null });
    api
      .post<VerifiedBank>('/payments/verify-bank-details', { bank_name: bank.bank, bank_code: bank.code, account_number: accountNumber })
      .then(({ data }) => {
        if (cancelled) return;
        setValue('bank_account_name', data.account_name, { shouldDirty: true });
        setState({ verifying: false, error: null });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        const { message, translate: isKey } = errorMessage(error);
        setValue('bank_account_name', '', { shouldDirty: false });
        setState({ verifying: false, error: isKey ? translate(message) : message });
      });
    return () => {
      cancelled = true;
    };
  }, [bankCode, accountNumber, banks, setValue, translate]);
  return (
    <TextInput
      source="bank_account_name"
      label="pos.members.bank.account_name"
      readOnly
      fullWidth
      helperText={state.error ?? (state.verifying ? 'pos.members.bank.verifying' : 'pos.members.bank.account_name_hint')}
      error={state.error !== null}
      slotProps={{ input: { endAdornment: state.verifying ? <InputAdornment position="end"><CircularProgress size={16} /></InputAdornment> : undefined } }}
    />
  );
};

const BankForm = () => {
  const member = useMember()!;
  const banks = usePortalQuery<BankListItem[]>('/payments/banks');
  const command = useMemberCommand();
  const save = (values: Record<string, unknown>) => {
    const bank = banks.data?.find((b) => b.code === values.bank_code);
    return command
      .mutateAsync({
        method: 'PUT',
        path: `/users/${member.id}/update-bank-details`,
        body: { bank_name: bank?.bank ?? '', bank_code: values.bank_code, bank_account_number: values.bank_account_number, bank_account_name: values.bank_account_name },
      })
      .catch(() => undefined);
  };
  return (
    <Section title="pos.members.bank.edit" testId="bank-edit">
      <Loaded query={banks}>
        {() => (
          <SimpleForm
            record={{ id: member.id, bank_code: member.bank_code ?? '', bank_account_number: member.bank_account_number ?? '', bank_account_name: member.bank_account_name ?? '' }}
            onSubmit={save}
            sx={{ p: 0 }}
            toolbar={
              <Toolbar sx={{ px: 0 }}>
                <SaveButton label="pos.members.bank.submit" />
              </Toolbar>
            }
          >
            <AutocompleteInput
              source="bank_code"
              label="pos.members.bank.bank"
              choices={banks.data!.map((b) => ({ id: b.code, name: b.bank }))}
              validate={required()}
              translateChoice={false}
              fullWidth
            />
            <TextInput source="bank_account_number" label="pos.members.bank.account_number" validate={validateAccountNumber} fullWidth parse={accountNumberInput} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
            <AccountNameFromBank banks={banks.data!} />
          </SimpleForm>
        )}
      </Loaded>
    </Section>
  );
};

/**
 * Seed 001 §2.11 item 4: the current bank details, the switch 'Allow Member to change account
 * details by-self' (PUT /api/users/{id}/bank-editable) and the change form (PUT
 * /api/users/{id}/update-bank-details, the account name as the bank resolves it).
 */
const Bank = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const canWrite = useCanWrite();
  const command = useMemberCommand();
  const hasBank = member.bank_account_number !== null;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, alignItems: 'start' }}>
      <Box>
        <Section title="pos.members.bank.current" testId="bank-current">
          {hasBank ? (
            <>
              <Line label="pos.members.bank.account_name" value={member.bank_account_name} />
              <Line label="pos.members.bank.account_number" value={member.bank_account_number} />
              <Line label="pos.members.bank.bank_name" value={member.bank_name} />
            </>
          ) : (
            <Alert severity="info">{translate('pos.members.bank.no_bank')}</Alert>
          )}
          <FormControlLabel
            sx={{ mt: 2 }}
            control={
              <Switch
                checked={member.bank_editable}
                disabled={!canWrite || command.isPending}
                onChange={(event) => command.mutate({ method: 'PUT', path: `/users/${member.id}/bank-editable`, body: { bank_editable: event.target.checked } })}
                slotProps={{ input: { 'aria-label': translate('pos.members.bank.editable') } }}
              />
            }
            label={translate('pos.members.bank.editable')}
            data-testid="bank-editable-switch"
          />
        </Section>
      </Box>
      {canWrite ? <BankForm /> : null}
    </Box>
  );
};

export const BankPanel = () => (
  <ActiveOnly>
    <Bank />
  </ActiveOnly>
);
