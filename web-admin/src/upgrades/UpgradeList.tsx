import { Chip, Stack, Typography } from '@mui/material';
import { FunctionField, List, SearchInput, TopToolbar, TextField, useListContext, useTranslate } from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { NairaField } from '../common/NairaField';
import { SerialField } from '../common/SerialField';
import { ExportCsvButton } from '../common/ExportCsvButton';

const ListActions = () => (
  <TopToolbar>
    <ExportCsvButton />
  </TopToolbar>
);
import { ResponsiveDatagrid } from '../common/ResponsiveDataTable';

const filters = [<SearchInput key="q" source="q" alwaysOn />];

const Total = () => {
  const { total } = useListContext();
  const translate = useTranslate();
  if (total === undefined) return null;
  return (
    <Typography variant="subtitle2" color="text.secondary" sx={{ px: 2, pt: 1.5 }}>
      {translate('pos.approvals.counters.upgrades')}: {total.toLocaleString('en-US')}
    </Typography>
  );
};

const Empty = () => (
  <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
    {useTranslate()('pos.approvals.empty.upgrades')}
  </Typography>
);

/** Approved package upgrades (seed 002 "registration upgrades table"). */
export const UpgradeList = () => (
  <List sort={{ field: 'created_at', order: 'DESC' }} perPage={25} filters={filters} empty={false} actions={<ListActions />}>
    <Total />
    <ResponsiveDatagrid phoneColumns={['full_name', 'package_name', 'amount']} rowClick={false} bulkActionButtons={false} empty={<Empty />}>
      <SerialField label="resources.upgrades.fields.serial" />
      <TextField source="full_name" />
      <TextField source="username" />
      <FunctionField
        source="previous_packages"
        sortable={false}
        render={(record) => (
          <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
            {(record.previous_packages as string[]).map((name, index) => (
              <Chip key={`${name}-${index}`} size="small" variant="outlined" label={name} />
            ))}
          </Stack>
        )}
      />
      <TextField source="package_name" />
      <NairaField source="amount" />
      <DateTimeField source="created_at" showTime />
    </ResponsiveDatagrid>
  </List>
);
