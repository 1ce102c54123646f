import { SerialField } from '../common/SerialField';
import { CreateButton, DataTable, EditButton, List, SearchInput, TopToolbar } from 'react-admin';
import type { RegistrationPackage } from '@portal/services/contracts/catalogue';
import { NairaField } from '../common/NairaField';
import { EmptyText, PointValue, useCanWrite } from './common';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

const filters = [<SearchInput key="q" source="q" alwaysOn />];

const Actions = () => (
  <TopToolbar>
    {useCanWrite() ? <CreateButton /> : null}
    <ExportCsvButton />
  </TopToolbar>
);

const Column = DataTable.Col<RegistrationPackage>;

/** Seed 002 "Packages screen": Official Registration Package Rates, each row editable by admins. */
export const PackageList = () => {
  const canWrite = useCanWrite();
  return (
    <List title="pos.catalogue.packages.title" sort={{ field: 'id', order: 'ASC' }} filters={filters} actions={<Actions />} empty={false} perPage={25}>
      <ResponsiveDataTable phoneColumns={['name', 'registration_value', 'resources.packages.fields.edit']} bulkActionButtons={false} rowClick={false} empty={<EmptyText text="pos.catalogue.packages.empty" />}>
        <Column label="resources.packages.fields.sn" disableSort>
          <SerialField />
        </Column>
        <Column source="name" />
        <Column source="point_value" align="right">
          <PointValue />
        </Column>
        <Column source="registration_value" align="right" field={NairaField} />
        <Column source="pickup_amount" align="right" field={NairaField} />
        <Column source="matching_bonus_cap" align="right" field={NairaField} />
        {canWrite ? (
          <Column label="resources.packages.fields.edit" disableSort>
            <EditButton label="pos.catalogue.packages.edit" />
          </Column>
        ) : null}
      </ResponsiveDataTable>
    </List>
  );
};
