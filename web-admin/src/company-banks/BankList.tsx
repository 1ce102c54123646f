import { SerialField } from '../common/SerialField';
import { CreateButton, DataTable, EditButton, List, SearchInput, TopToolbar } from 'react-admin';
import type { CompanyBank } from '@portal/services/contracts/catalogue';
import { EmptyText, useCanWrite } from '../packages/common';
import { DeleteBankButton } from './BankForm';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

const filters = [<SearchInput key="q" source="q" alwaysOn />];

const Actions = () => (
  <TopToolbar>
    {useCanWrite() ? <CreateButton label="pos.catalogue.banks.add" /> : null}
    <ExportCsvButton />
  </TopToolbar>
);


const Column = DataTable.Col<CompanyBank>;

/** Seed 002 "Company details", the bank part: the company's official accounts members pay into. */
export const BankList = () => {
  const canWrite = useCanWrite();
  return (
    <List title="pos.catalogue.banks.title" sort={{ field: 'id', order: 'ASC' }} filters={filters} actions={<Actions />} empty={false}>
      <ResponsiveDataTable phoneColumns={['bank_name', 'bank_account_number']} bulkActionButtons={false} rowClick={false} empty={<EmptyText text="pos.catalogue.banks.empty" />}>
        <Column label="resources.company-banks.fields.sn" disableSort>
          <SerialField />
        </Column>
        <Column source="bank_name" />
        <Column source="bank_account_name" />
        <Column source="bank_account_number" />
        {canWrite ? (
          <Column label="resources.company-banks.fields.actions" disableSort>
            <EditButton label="pos.catalogue.banks.edit" />
            <DeleteBankButton />
          </Column>
        ) : null}
      </ResponsiveDataTable>
    </List>
  );
};
