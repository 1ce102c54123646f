import { SerialField } from '../common/SerialField';
import Box from '@mui/material/Box';
import { CreateButton, DataTable, EditButton, List, SearchInput, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import type { StockistPackage } from '@portal/services/contracts/catalogue';
import { NairaField } from '../common/NairaField';
import { EmptyText, PointValue, useCanWrite } from '../packages/common';
import { SettingsCard } from '../settings/SettingsCard';
import { SettingNumberInput } from '../settings/inputs';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

const filters = [<SearchInput key="q" source="q" alwaysOn />];

const Actions = () => (
  <TopToolbar>
    {useCanWrite() ? <CreateButton /> : null}
    <ExportCsvButton />
  </TopToolbar>
);

const Rebate = () => {
  const record = useRecordContext<StockistPackage>();
  const translate = useTranslate();
  return record ? <>{translate('pos.catalogue.percent', { value: record.sales_bonus_percentage })}</> : null;
};

/** The stockist referral bonus percentage card (a setting, saved with PUT /api/settings/update). */
const ReferralBonusCard = () => (
  <Box sx={{ p: 2, maxWidth: 480 }}>
    <SettingsCard title="pos.catalogue.stockist_packages.referral_bonus" help="pos.catalogue.stockist_packages.referral_bonus_help" fields={['stockist_referral_bonus_percentage']}>
      <SettingNumberInput source="stockist_referral_bonus_percentage" unit="percent" label="pos.catalogue.stockist_packages.referral_bonus" />
    </SettingsCard>
  </Box>
);

const Column = DataTable.Col<StockistPackage>;

/** Seed 002 "Stockist packages": the table with 'Edit Package', and the referral bonus card. */
export const StockistPackageList = () => {
  const canWrite = useCanWrite();
  return (
    <List title="pos.catalogue.stockist_packages.title" sort={{ field: 'value', order: 'ASC' }} filters={filters} actions={<Actions />} empty={false}>
      <ResponsiveDataTable phoneColumns={['name', 'registration_value', 'resources.stockist-packages.fields.edit']} bulkActionButtons={false} rowClick={false} empty={<EmptyText text="pos.catalogue.stockist_packages.empty" />}>
        <Column label="resources.stockist-packages.fields.sn" disableSort>
          <SerialField />
        </Column>
        <Column source="name" />
        <Column source="registration_value" align="right" field={NairaField} />
        <Column source="sales_bonus_percentage" align="right">
          <Rebate />
        </Column>
        <Column source="pickup_amount" align="right" field={NairaField} />
        <Column source="point_value" align="right">
          <PointValue />
        </Column>
        {canWrite ? (
          <Column label="resources.stockist-packages.fields.edit" disableSort>
            <EditButton label="pos.catalogue.stockist_packages.edit" />
          </Column>
        ) : null}
      </ResponsiveDataTable>
      <ReferralBonusCard />
    </List>
  );
};
