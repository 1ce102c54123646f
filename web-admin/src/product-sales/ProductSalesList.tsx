import { usePortalQuery } from '../api/usePortalQuery';
import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { DataTable, List, TopToolbar, useTranslate } from 'react-admin';
import { formatNaira, nairaOptions } from '../common/NairaField';
import { SerialField } from '../common/SerialField';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';
import { formatYearMonth } from '../common/dates';

type SalesSum = { total: number; total_qty: number; count: number };

/** "March 2030" for year 2030, month 3 (the seed's Period as month and year). */
const periodLabel = (record: { year: number; month: number }) =>
  formatYearMonth(record.year, record.month);

/** The total product sales amount above the table (GET /api/product-purchases/sum-prices). */
const SalesTotal = () => {
  const translate = useTranslate();
  const { data, isPending } = usePortalQuery<SalesSum>('/product-purchases/sum-prices');
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Typography variant="subtitle2" color="text.secondary">
          {translate('pos.finance.sales.total')}
        </Typography>
        {isPending || !data ? (
          <Skeleton width={160} height={40} />
        ) : (
          <>
            <Typography variant="h5" sx={{ fontWeight: 600 }} data-testid="sales-total">
              {formatNaira(data.total)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate('pos.finance.sales.total_help', { count: data.count, qty: data.total_qty })}
            </Typography>
          </>
        )}
      </CardContent>
    </Card>
  );
};

const Empty = () => {
  const translate = useTranslate();
  return (
    <Typography variant="body1" color="text.secondary" sx={{ p: 4, textAlign: 'center', width: '100%' }}>
      {translate('pos.finance.sales.empty')}
    </Typography>
  );
};

/**
 * Product Sales History (seed 002 Transactions tab 3): the total product sales amount, then one row
 * per month of paid repurchases: S/N, Period, Product Repurchase (Qty), Total Repurchase.
 */
export const ProductSalesList = () => (
  <List
    title="pos.finance.sales.title"
    sort={{ field: 'period', order: 'DESC' }}
    perPage={25}
    actions={
      <TopToolbar>
        <ExportCsvButton />
      </TopToolbar>
    }
    empty={
      <Box sx={{ width: '100%', mt: 2 }}>
        <SalesTotal />
        <Empty />
      </Box>
    }
  >
    <Box sx={{ px: 2, pt: 2 }}>
      <SalesTotal />
    </Box>
    <ResponsiveDataTable phoneColumns={['period', 'total_qty', 'total']} rowClick={false} bulkActionButtons={false} empty={<Empty />}>
      <DataTable.Col label="resources.product-sales.fields.sn" disableSort>
        <SerialField />
      </DataTable.Col>
      <DataTable.Col source="period" render={periodLabel} />
      <DataTable.NumberCol source="total_qty" />
      <DataTable.NumberCol source="total" locales="en-US" options={nairaOptions} />
    </ResponsiveDataTable>
  </List>
);
