import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Chip, Stack, Typography } from '@mui/material';
import {
  DataTable,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  TopToolbar,
  useGetList,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { CommandButton } from '../common/CommandButton';
import { NairaField } from '../common/NairaField';
import { SerialField } from '../common/SerialField';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

const statuses = ['processing', 'approved', 'declined'] as const;
const statusChoices = statuses.map((id) => ({ id, name: `pos.incentives.claims.status.${id}` }));
const statusColor = { processing: 'warning', approved: 'success', declined: 'error' } as const;

const claimFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={statusChoices} alwaysOn />,
];

/** "3 pending requests": the count of requests waiting for a decision, whatever the list shows. */
const PendingCount = () => {
  const translate = useTranslate();
  const { total } = useGetList('incentive-claims', { filter: { status: 'processing' }, pagination: { page: 1, perPage: 1 } });
  if (total === undefined) return null;
  return <Chip color={total > 0 ? 'warning' : 'default'} label={translate('pos.incentives.claims.pending_count', { smart_count: total })} data-testid="pending-count" />;
};

const ClaimListActions = () => (
  <TopToolbar sx={{ alignItems: 'center' }}>
    <PendingCount />
    <ExportCsvButton />
  </TopToolbar>
);

const StatusField = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const status = record.status as (typeof statuses)[number];
  return <Chip size="small" variant="outlined" color={statusColor[status] ?? 'default'} label={translate(`pos.incentives.claims.status.${status}`)} />;
};

/** Approve and Decline, for a request still waiting and an administrator who may write. */
const DecisionButtons = () => {
  const record = useRecordContext();
  const { permissions } = usePermissions();
  if (!record || record.status !== 'processing' || permissions !== 'admin') return null;
  return (
    <Stack spacing={0.5} alignItems="flex-start">
      <CommandButton
        label="pos.incentives.claims.approve"
        method="PUT"
        path={(r) => `/incentive-claims/${r.id}/approve`}
        confirmTitle="pos.incentives.claims.approve_title"
        confirmContent="pos.incentives.claims.approve_content"
        color="success"
        icon={<CheckIcon />}
      />
      <CommandButton
        label="pos.incentives.claims.decline"
        method="PUT"
        path={(r) => `/incentive-claims/${r.id}/decline`}
        confirmTitle="pos.incentives.claims.decline_title"
        confirmContent="pos.incentives.claims.decline_content"
        color="error"
        icon={<CloseIcon />}
      />
    </Stack>
  );
};

const Empty = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 3, textAlign: 'center' }}>
      <Typography color="text.secondary">{translate('pos.incentives.claims.empty')}</Typography>
    </Box>
  );
};

/** Seed 002 "Incentive Requests screen": the pending requests first (oldest first), approve or decline each. */
export const IncentiveClaimList = () => (
  <List
    title="pos.incentives.claims.title"
    filters={claimFilters}
    filterDefaultValues={{ status: 'processing' }}
    sort={{ field: 'created_at', order: 'ASC' }}
    actions={<ClaimListActions />}
    empty={false}
    perPage={25}
  >
    <ResponsiveDataTable phoneColumns={['last_name', 'status', 'resources.incentive-claims.fields.action']} bulkActionButtons={false} rowClick={false} empty={<Empty />} size="small" sx={{ '& .MuiTableCell-root': { px: 0.75 } }}>
      <DataTable.Col label="resources.incentive-claims.fields.sn" disableSort>
        <SerialField />
      </DataTable.Col>
      <DataTable.Col source="last_name" label="resources.incentive-claims.fields.full_name">
        <FunctionField render={(record) => `${record.first_name} ${record.last_name}`} />
      </DataTable.Col>
      <DataTable.Col source="username" />
      <DataTable.Col source="package_name" />
      <DataTable.NumberCol source="cpv" />
      <DataTable.Col source="rank_name" />
      <DataTable.Col source="incentive" />
      <DataTable.Col source="worth" align="right">
        <NairaField source="worth" />
      </DataTable.Col>
      <DataTable.Col source="status">
        <StatusField />
      </DataTable.Col>
      <DataTable.Col source="created_at">
        <DateTimeField source="created_at" showTime />
      </DataTable.Col>
      <DataTable.Col label="resources.incentive-claims.fields.action" disableSort>
        <DecisionButtons />
      </DataTable.Col>
    </ResponsiveDataTable>
  </List>
);

