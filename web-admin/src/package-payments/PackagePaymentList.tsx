import ThumbUpIcon from '@mui/icons-material/ThumbUp';
import { Chip, Divider, FormControlLabel, Stack, Switch, Tab, Tabs, Typography } from '@mui/material';
import { Fragment, type SyntheticEvent } from 'react';
import {
  FilterButton,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  TextField,
  TopToolbar,
  WrapperField,
  useGetList,
  useListContext,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { CommandButton } from '../common/CommandButton';
import { NairaField, formatNaira } from '../common/NairaField';
import { DeclineButton } from './DeclineButton';
import { SerialField } from '../common/SerialField';
import { StatusChip } from './StatusChip';
import { ViewReceiptButton } from './ViewReceiptButton';
import { TransferReferenceLine } from './TransferReference';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDatagrid } from '../common/ResponsiveDataTable';

type Queue = 'pending' | 'history' | 'all';
const queues: Queue[] = ['pending', 'history', 'all'];

/**
 * Every Pay click on a card payment records a started checkout (an `initiated` payment); most are
 * abandoned. All Payments hides them unless asked (they never reach the Pending or Upload History
 * tabs): a list filter, the rows themselves are projections and stay as they are.
 */
const hideStarted = { status_neq: 'initiated' } as const;

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput
    key="status"
    source="status"
    choices={['pending', 'approved', 'declined', 'initiated', 'amount_mismatch', 'not_applied'].map((id) => ({ id, name: `pos.approvals.status.${id}` }))}
  />,
  <SelectInput key="purpose" source="purpose" choices={['registration', 'upgrade', 'product_purchase'].map((id) => ({ id, name: `pos.approvals.purpose.${id}` }))} />,
  <SelectInput key="method" source="method" choices={['card', 'receipt', 'wallet'].map((id) => ({ id, name: `pos.approvals.method.${id}` }))} />,
];

/** How many payments a tab holds (the seed's Pending Approvals and Total Processed Payment Uploads counters). */
const useQueueTotal = (queue: Queue, startedHidden: boolean) => {
  const filter = queue === 'all' ? (startedHidden ? hideStarted : {}) : { queue };
  const { total } = useGetList('package-payments', { pagination: { page: 1, perPage: 1 }, filter });
  return total;
};

const TabLabel = ({ queue, startedHidden }: { queue: Queue; startedHidden: boolean }) => {
  const translate = useTranslate();
  const total = useQueueTotal(queue, startedHidden);
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <span>{translate(`pos.approvals.tabs.${queue}`)}</span>
      {total !== undefined ? (
        <Chip size="small" label={total} color={queue === 'pending' && total > 0 ? 'warning' : 'default'} data-testid={`count-${queue}`} />
      ) : null}
    </Stack>
  );
};

/** Naira of held bonuses that approving this pending registration payment releases (0 for any other payment). */
const heldReleased = (record: Record<string, any>): number =>
  record.queue === 'pending' && record.purpose === 'registration' && typeof record.held_bonuses === 'number' ? record.held_bonuses : 0;

/** The amount, and for a pending registration payment with bonuses held for the member, what approving it releases. */
const AmountWithRelease = (_props: { label?: string; source?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const held = heldReleased(record);
  return (
    <>
      <NairaField source="amount" />
      {held > 0 ? (
        <Typography variant="caption" component="div" color="success.dark" sx={{ fontWeight: 600, maxWidth: 170, mt: 0.25 }} data-testid="held-release">
          {translate('pos.approvals.held_release', { amount: formatNaira(held) })}
        </Typography>
      ) : null}
    </>
  );
};

/**
 * View Receipt for a receipt payment (Details for a card payment waiting for a decision; nothing for
 * other card and wallet payments, which have no receipt); Approve and Decline for payments still
 * waiting, and only for administrators.
 */
const RowActions = (_props: { label?: string }) => {
  const record = useRecordContext();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  if (!record) return null;
  const decidable = permissions === 'admin' && record.queue === 'pending';
  const held = heldReleased(record);
  const viewable = record.method === 'receipt' || record.queue === 'pending';
  if (!viewable && !decidable) return null;
  return (
    <Stack direction="column" alignItems="flex-start" sx={{ whiteSpace: 'nowrap' }}>
      {viewable ? <ViewReceiptButton /> : null}
      {decidable ? (
        <>
          <CommandButton
            label="resources.package-payments.action.approve"
            method="PATCH"
            color="success"
            icon={<ThumbUpIcon />}
            path={(r) => `/payments/package-payments/${encodeURIComponent(String(r.id))}/approve`}
            confirmTitle="pos.approvals.confirm.approve_title"
            confirmContent={
              held > 0 ? translate('pos.approvals.confirm.approve_content_held', { amount: formatNaira(held) }) : 'pos.approvals.confirm.approve_content'
            }
          />
          <DeclineButton />
        </>
      ) : null}
    </Stack>
  );
};

const emptyText = (queue: Queue) => (
  <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
    <EmptyText queue={queue} />
  </Typography>
);
const EmptyText = ({ queue }: { queue: Queue }) => <>{useTranslate()(`pos.approvals.empty.${queue}`)}</>;

const PaymentsGrid = ({ queue }: { queue: Queue }) => {
  const translate = useTranslate();
  return (
    <ResponsiveDatagrid
      phoneColumns={['full_name', 'status', 'resources.package-payments.fields.actions']}
      rowClick={false}
      bulkActionButtons={false}
      empty={emptyText(queue)}
      rowSx={(record) => (record.status === 'initiated' ? { opacity: 0.6, '& td': { color: 'text.secondary' } } : {})}
      sx={{ '& .column-narration': { maxWidth: 220 } }}
    >
      <SerialField label="resources.package-payments.fields.serial" />
      <TextField source="full_name" />
      <TextField source="username" />
      <FunctionField
        source="package_name"
        render={(record) => (
          <>
            <Typography variant="body2">{record.package_name}</Typography>
            <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
              {translate(`pos.approvals.purpose.${record.purpose}`)} · {translate(`pos.approvals.method.${record.method}`)}
            </Typography>
            {record.transfer_reference ? <TransferReferenceLine reference={record.transfer_reference} /> : null}
          </>
        )}
      />
      <WrapperField source="amount" label="resources.package-payments.fields.amount">
        <AmountWithRelease />
      </WrapperField>
      <FunctionField source="status" render={(record) => <StatusChip status={record.status} />} />
      <TextField source="narration" />
      <DateTimeField source="created_at" showTime />
      <WrapperField label="resources.package-payments.fields.actions" sortable={false}>
        <RowActions />
      </WrapperField>
    </ResponsiveDatagrid>
  );
};

/** The Pending Approvals / Payment Upload History tabs drive the `queue` filter. */
const TabbedPayments = () => {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const queue: Queue = filterValues.queue === 'pending' || filterValues.queue === 'history' ? filterValues.queue : 'all';
  // A status chosen in the filters wins: "Started, not paid" must then show them.
  const startedHidden = filterValues.status_neq === 'initiated' && !filterValues.status;
  const change = (_event: SyntheticEvent, value: Queue) => {
    const { queue: _dropped, status_neq: _shown, ...rest } = filterValues;
    // Opening All Payments hides the unpaid card checkouts again.
    setFilters(value === 'all' ? { ...rest, ...(rest.status ? {} : hideStarted) } : { ...rest, queue: value }, displayedFilters);
  };
  return (
    <Fragment>
      <Tabs variant="scrollable" value={queue} indicatorColor="primary" onChange={change}>
        {queues.map((q) => (
          <Tab key={q} value={q} label={<TabLabel queue={q} startedHidden={startedHidden} />} data-testid={`tab-${q}`} />
        ))}
      </Tabs>
      <Divider />
      {queue === 'all' && !filterValues.status ? <StartedToggle hidden={startedHidden} /> : null}
      <PaymentsGrid queue={queue} />
    </Fragment>
  );
};

/** All Payments: a switch to show the card checkouts never paid, with how many there are. */
const StartedToggle = ({ hidden }: { hidden: boolean }) => {
  const translate = useTranslate();
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const { total } = useGetList('package-payments', { pagination: { page: 1, perPage: 1 }, filter: { status: 'initiated' } });
  if (!total && hidden) return null;
  const toggle = (_event: unknown, show: boolean) => {
    const { status_neq: _dropped, ...rest } = filterValues;
    setFilters(show ? rest : { ...rest, ...hideStarted }, displayedFilters);
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }} sx={{ px: 2, pt: 1, alignItems: { sm: 'center' } }}>
      <FormControlLabel
        control={<Switch size="small" checked={!hidden} onChange={toggle} data-testid="show-started" />}
        label={<Typography variant="body2">{translate('pos.approvals.started.show', { count: total ?? 0 })}</Typography>}
      />
      <Typography variant="caption" color="text.secondary">
        {translate('pos.approvals.started.help')}
      </Typography>
    </Stack>
  );
};

/** Registration, upgrade and product purchase payments (seed 002 "Registration History"). */
export const PackagePaymentList = () => (
  <List
    filterDefaultValues={{ queue: 'pending', ...hideStarted }}
    sort={{ field: 'created_at', order: 'DESC' }}
    perPage={25}
    filters={filters}
    empty={false}
    actions={
      <TopToolbar>
        <FilterButton />
        <ExportCsvButton />
      </TopToolbar>
    }
  >
    <TabbedPayments />
  </List>
);
