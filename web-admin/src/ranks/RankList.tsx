import { Box, Chip, Typography } from '@mui/material';
import { CreateButton, DataTable, EditButton, List, SearchInput, TopToolbar, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { SerialField } from '../common/SerialField';
import { AwardBonusCards } from './AwardBonusCards';
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

/** 1 or 0, shown as Eligible or Not-Eligible (seed 002 §3). */
const EligibilityField = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const eligible = Number(record.is_global_profit_eligible) === 1;
  return <Chip size="small" variant="outlined" color={eligible ? 'success' : 'default'} label={translate(eligible ? 'pos.incentives.ranks.eligible' : 'pos.incentives.ranks.not_eligible')} />;
};

const Empty = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 3, textAlign: 'center' }}>
      <Typography color="text.secondary">{translate('pos.incentives.ranks.empty')}</Typography>
    </Box>
  );
};

/** Seed 002 "Ranks": the ranks table with 'Edit Rank', and the award bonus cards above it. */
export const RankList = () => (
  <>
    <AwardBonusCards />
    <List title="pos.incentives.ranks.title" filters={filters} sort={{ field: 'points', order: 'ASC' }} actions={<Actions />} empty={false} perPage={25}>
      <ResponsiveDataTable phoneColumns={['name', 'points']} bulkActionButtons={false} rowClick={false} empty={<Empty />}>
        <DataTable.Col label="resources.ranks.fields.sn" disableSort>
          <SerialField />
        </DataTable.Col>
        <DataTable.Col source="name" />
        <DataTable.NumberCol source="points" options={{ maximumFractionDigits: 0 }} locales="en-US" />
        <DataTable.Col source="is_global_profit_eligible">
          <EligibilityField />
        </DataTable.Col>
        <DataTable.Col source="package_name" />
        <DataTable.Col source="description" disableSort cellSx={() => ({ minWidth: 220 })} />
        <DataTable.Col disableSort>
          <AdminEditButton />
        </DataTable.Col>
      </ResponsiveDataTable>
    </List>
  </>
);
