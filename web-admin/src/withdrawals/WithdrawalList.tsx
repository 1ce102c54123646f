import { Box, Typography } from '@mui/material';
import {
  ColumnsButton,
  DataTable,
  DateInput,
  FilterButton,
  List,
  SearchInput,
  SelectInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { nairaOptions } from '../common/NairaField';
import { SerialField } from '../common/SerialField';
import { WithdrawalStatusField } from './WithdrawalStatusField';
import { WithdrawalTotals } from './WithdrawalTotals';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

/** A day on the company's calendar (Lagos, UTC+1): from its first instant, or until its last. */
const lagosDay = (edge: 'start' | 'end') => ({
  format: (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : ''),
  parse: (value: string) => (value ? `${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}+01:00` : null),
});

const statusChoices = ['pending', 'processing', 'successful', 'failed'].map((id) => ({ id, name: `pos.finance.status_filter.${id}` }));
const typeChoices = [
  { id: 'withdrawal', name: 'pos.finance.withdrawals.withdrawal_kind' },
  { id: 'payout', name: 'pos.finance.withdrawals.payout_kind' },
];

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={statusChoices} alwaysOn />,
  <SelectInput key="type" source="type" choices={typeChoices} />,
  <DateInput key="from" source="created_at_gte" {...lagosDay('start')} />,
  <DateInput key="until" source="created_at_lte" {...lagosDay('end')} />,
];

const ListActions = () => (
  <TopToolbar>
    <FilterButton />
    <ColumnsButton />
    <ExportCsvButton />
  </TopToolbar>
);

const Empty = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 4, textAlign: 'center', width: '100%' }}>
      <Typography variant="body1" color="text.secondary">
        {translate('pos.finance.withdrawals.empty')}
      </Typography>
    </Box>
  );
};

/**
 * Withdrawal History (seed 002 Transactions tab 1, seed 001 §2.12): the total above, a search box,
 * and S/N, Username, Amount, Charge, Status and Payout Date with the member's name, what the bank
 * is sent, and when it was requested. A row opens the withdrawal and its history.
 */
export const WithdrawalList = () => (
  <List
    title="pos.finance.withdrawals.title"
    filters={filters}
    sort={{ field: 'created_at', order: 'DESC' }}
    perPage={25}
    actions={<ListActions />}
    empty={
      <Box sx={{ width: '100%', mt: 2 }}>
        <WithdrawalTotals />
        <Empty />
      </Box>
    }
  >
    <Box sx={{ px: 2, pt: 2 }}>
      <WithdrawalTotals />
    </Box>
    <ResponsiveDataTable phoneColumns={['full_name', 'net_amount', 'status']} rowClick="show" empty={<Empty />} sx={{ '& .MuiTableCell-head': { whiteSpace: 'nowrap' } }} hiddenColumns={['transfer_reference', 'type', 'bank_name']} bulkActionButtons={false}>
      <DataTable.Col label="resources.withdrawals.fields.sn" disableSort>
        <SerialField />
      </DataTable.Col>
      <DataTable.Col source="username" />
      <DataTable.Col source="full_name" cellSx={() => ({ whiteSpace: 'nowrap' })} />
      <DataTable.NumberCol source="amount" locales="en-US" options={nairaOptions} />
      <DataTable.NumberCol source="charge" locales="en-US" options={nairaOptions} />
      <DataTable.NumberCol source="net_amount" locales="en-US" options={nairaOptions} />
      <DataTable.Col source="status">
        <WithdrawalStatusField />
      </DataTable.Col>
      <DataTable.Col source="type" render={(record) => <TypeText type={record.type} />} />
      <DataTable.Col source="bank_name" />
      <DataTable.Col source="transfer_reference" />
      <DataTable.Col source="payout_date">
        <DateTimeField source="payout_date" showTime emptyText="—" />
      </DataTable.Col>
      <DataTable.Col source="created_at">
        <DateTimeField source="created_at" showTime />
      </DataTable.Col>
    </ResponsiveDataTable>
  </List>
);

const TypeText = ({ type }: { type: string }) => {
  const translate = useTranslate();
  return <>{translate(type === 'payout' ? 'pos.finance.withdrawals.payout_kind' : 'pos.finance.withdrawals.withdrawal_kind')}</>;
};
