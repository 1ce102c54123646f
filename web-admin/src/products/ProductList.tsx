import { SerialField } from '../common/SerialField';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import ToggleOffIcon from '@mui/icons-material/ToggleOff';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import { CreateButton, DataTable, EditButton, List, SearchInput, SelectInput, TopToolbar, useGetList, useRecordContext, useTranslate } from 'react-admin';
import type { Product } from '@portal/services/contracts/catalogue';
import { CommandButton } from '../common/CommandButton';
import { NairaField } from '../common/NairaField';
import { EmptyText, useCanWrite } from '../packages/common';
import { ProductImage } from './ProductImage';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

const statusChoices = [
  { id: 'true', name: 'pos.catalogue.products.enabled' },
  { id: 'false', name: 'pos.catalogue.products.disabled' },
];

const filters = [<SearchInput key="q" source="q" alwaysOn />, <SelectInput key="is_active" source="is_active" choices={statusChoices} alwaysOn emptyText="pos.catalogue.products.all" />];

const Actions = () => (
  <TopToolbar>
    {useCanWrite() ? <CreateButton label="pos.catalogue.products.add" /> : null}
    <ExportCsvButton />
  </TopToolbar>
);

/** "A count of registration products" (seed 002): every product, whatever the filters. */
const ProductCount = () => {
  const translate = useTranslate();
  const { total } = useGetList('products', { pagination: { page: 1, perPage: 1 } });
  return (
    <Card variant="outlined" sx={{ m: 2, mb: 0, p: 2, display: 'inline-flex', flexDirection: 'column', minWidth: 220 }} data-testid="products-count">
      <Typography variant="overline" color="text.secondary">
        {translate('pos.catalogue.products.count')}
      </Typography>
      <Typography variant="h5">{total ?? '—'}</Typography>
    </Card>
  );
};

const Status = () => {
  const record = useRecordContext<Product>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Chip
      size="small"
      color={record.is_active ? 'success' : 'default'}
      variant={record.is_active ? 'filled' : 'outlined'}
      label={translate(record.is_active ? 'pos.catalogue.products.enabled' : 'pos.catalogue.products.disabled')}
    />
  );
};

/** Enable or disable through the catalogue's own path, PUT /api/products/{id}/toggle-status. */
const ToggleButton = () => {
  const record = useRecordContext<Product>();
  const translate = useTranslate();
  if (!record) return null;
  const enable = !record.is_active;
  return (
    <CommandButton
      label={enable ? 'pos.catalogue.products.enable' : 'pos.catalogue.products.disable'}
      method="PUT"
      path={(r) => `/products/${r.id}/toggle-status`}
      body={(r) => ({ is_active: !r.is_active })}
      confirmTitle={enable ? 'pos.catalogue.products.enable_title' : 'pos.catalogue.products.disable_title'}
      confirmContent={translate(enable ? 'pos.catalogue.products.enable_content' : 'pos.catalogue.products.disable_content', { name: record.name })}
      color={enable ? 'success' : 'error'}
      icon={enable ? <ToggleOnIcon /> : <ToggleOffIcon />}
    />
  );
};

const Column = DataTable.Col<Product>;

/** Seed 002 "Products screen": the count, Add Product, and the Company Products table. */
export const ProductList = () => {
  const canWrite = useCanWrite();
  const translate = useTranslate();
  return (
    <List sort={{ field: 'id', order: 'ASC' }} filters={filters} actions={<Actions />} empty={false} perPage={25}>
      <ProductCount />
      <Box sx={{ px: 2, pt: 2 }}>
        <Typography variant="h6">{translate('pos.catalogue.products.title')}</Typography>
      </Box>
      <ResponsiveDataTable phoneColumns={['name', 'worth', 'is_active']} bulkActionButtons={false} rowClick={false} empty={<EmptyText text="pos.catalogue.products.empty" />}>
        <Column label="resources.products.fields.sn" disableSort>
          <SerialField />
        </Column>
        <Column source="name" />
        <Column source="description" disableSort sx={{ maxWidth: 320 }} />
        <Column source="image" disableSort>
          <ProductImage />
        </Column>
        <Column source="worth" align="right" field={NairaField} />
        <Column source="is_active">
          <Status />
        </Column>
        {canWrite ? (
          <Column label="resources.products.fields.edit" disableSort>
            <EditButton label="pos.catalogue.products.edit" />
          </Column>
        ) : null}
        {canWrite ? (
          <Column label="resources.products.fields.toggle" disableSort>
            <ToggleButton />
          </Column>
        ) : null}
      </ResponsiveDataTable>
    </List>
  );
};
