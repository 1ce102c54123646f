import { usePortalQuery } from '../api/usePortalQuery';
import { AutocompleteInput, DeleteWithConfirmButton, SimpleForm, TextInput, required, useRecordContext, useTranslate } from 'react-admin';
import type { BankListItem } from '@portal/services/contracts/profile';
import { companyBankCreateBody } from '@portal/services/contracts/catalogue';
import { CatalogueToolbar } from '../packages/common';
import { serverSchemaValidator } from '../common/serverSchema';
import { accountNumberInput } from '@portal/web-shared/lib/digits';

/** The API's own rules (contracts/catalogue.ts), at the fields: a 10-digit number, names required. */
const validate = serverSchemaValidator(companyBankCreateBody);

/** The payment provider's bank list (GET /api/payments/banks), the names a bank must be chosen from. */
const useProviderBanks = () =>
  usePortalQuery<BankListItem[]>('/payments/banks', { staleTime: 60 * 60 * 1000 });

/** 'Delete bank' after a confirmation naming the account (DELETE /api/admin/company-banks/{id}). */
export const DeleteBankButton = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <DeleteWithConfirmButton
      mutationMode="pessimistic"
      confirmTitle="pos.catalogue.banks.delete"
      confirmContent={translate('pos.catalogue.banks.delete_content', { bank: record.bank_name, number: record.bank_account_number })}
    />
  );
};

/**
 * Seed 002 §5 "Add company bank": account name and number required; the bank chosen from the
 * provider list (a bank saved earlier under another name stays choosable).
 */
export const BankForm = () => {
  const record = useRecordContext();
  const { data = [], isPending } = useProviderBanks();
  const names = new Set(data.map((bank) => bank.bank));
  const choices = [...data.map((bank) => ({ id: bank.bank, name: bank.bank })), ...(record?.bank_name && !names.has(record.bank_name) ? [{ id: record.bank_name, name: record.bank_name }] : [])];
  return (
    <SimpleForm validate={validate} noValidate sx={{ maxWidth: 560 }} toolbar={<CatalogueToolbar>{record?.id ? <DeleteBankButton /> : null}</CatalogueToolbar>}>
      <AutocompleteInput source="bank_name" choices={choices} isPending={isPending} validate={required()} helperText="pos.catalogue.banks.choose_bank" fullWidth />
      <TextInput source="bank_account_name" validate={required()} fullWidth />
      <TextInput
        source="bank_account_number"
        validate={required()}
        parse={accountNumberInput} slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        fullWidth
      />
    </SimpleForm>
  );
};
