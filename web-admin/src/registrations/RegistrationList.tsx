import { Typography } from '@mui/material';
import { List, SearchInput, TopToolbar, TextField, WrapperField, useListContext, useTranslate } from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { NairaField } from '../common/NairaField';
import { SerialField } from '../common/SerialField';
import { UpgradeHistoryButton } from './UpgradeHistoryButton';
import { ExportCsvButton } from '../common/ExportCsvButton';

const ListActions = () => (
  <TopToolbar>
    <ExportCsvButton />
  </TopToolbar>
);
import { ResponsiveDatagrid } from '../common/ResponsiveDataTable';

const filters = [<SearchInput key="q" source="q" alwaysOn />];

/** The seed's total registration counter. */
const Total = () => {
  const { total } = useListContext();
  const translate = useTranslate();
  if (total === undefined) return null;
  return (
    <Typography variant="subtitle2" color="text.secondary" sx={{ px: 2, pt: 1.5 }} data-testid="registrations-total">
      {translate('pos.approvals.counters.registrations')}: {total.toLocaleString('en-US')}
    </Typography>
  );
};

const Empty = () => (
  <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
    {useTranslate()('pos.approvals.empty.registrations')}
  </Typography>
);

/** Paid registrations (seed 002 "Registration History"): who registered on which package, for how much, when. */
export const RegistrationList = () => (
  <List sort={{ field: 'created_at', order: 'DESC' }} perPage={25} filters={filters} empty={false} actions={<ListActions />}>
    <Total />
    <ResponsiveDatagrid phoneColumns={['full_name', 'amount', 'resources.registrations.fields.upgrades']} rowClick={false} bulkActionButtons={false} empty={<Empty />}>
      <SerialField label="resources.registrations.fields.serial" />
      <TextField source="full_name" />
      <TextField source="username" />
      <TextField source="package_name" />
      <NairaField source="amount" />
      <DateTimeField source="created_at" showTime />
      <WrapperField label="resources.registrations.fields.upgrades" sortable={false}>
        <UpgradeHistoryButton />
      </WrapperField>
    </ResponsiveDatagrid>
  </List>
);
