import { Box, Typography } from '@mui/material';
import { CreateButton, DataTable, EditButton, List, SearchInput, TopToolbar, usePermissions, useTranslate } from 'react-admin';
import { NairaField } from '../common/NairaField';
import { IncentiveImageField } from './IncentiveImageField';
import { SerialField } from '../common/SerialField';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

const filters = [<SearchInput key="q" source="q" alwaysOn />];

const Actions = () => {
  const { permissions } = usePermissions();
  return (
    <TopToolbar>
      {permissions === 'admin' && <CreateButton />}
      <ExportCsvButton />
    </TopToolbar>
  );
};

const AdminEditButton = () => {
  const { permissions } = usePermissions();
  return permissions === 'admin' ? <EditButton /> : null;
};

const Empty = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 3, textAlign: 'center' }}>
      <Typography color="text.secondary">{translate('pos.incentives.list.empty')}</Typography>
    </Box>
  );
};

/** Seed 002 "Incentives screen" ('Official Ranks and Incentives'): one incentive per rank, by the CPV that earns it. */
export const IncentiveList = () => (
  <List title="pos.incentives.list.title" filters={filters} sort={{ field: 'points', order: 'ASC' }} actions={<Actions />} empty={false} perPage={25}>
    <ResponsiveDataTable phoneColumns={['name', 'points', 'worth']} bulkActionButtons={false} rowClick={false} empty={<Empty />}>
      <DataTable.Col label="resources.incentives.fields.sn" disableSort>
        <SerialField />
      </DataTable.Col>
      <DataTable.Col source="name" />
      <DataTable.NumberCol source="points" options={{ maximumFractionDigits: 0 }} locales="en-US" />
      <DataTable.Col source="incentive" />
      <DataTable.Col source="worth" align="right">
        <NairaField source="worth" />
      </DataTable.Col>
      <DataTable.Col source="file_path" disableSort>
        <IncentiveImageField />
      </DataTable.Col>
      <DataTable.Col disableSort>
        <AdminEditButton />
      </DataTable.Col>
    </ResponsiveDataTable>
  </List>
);
