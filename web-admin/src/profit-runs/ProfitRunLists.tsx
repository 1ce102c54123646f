import { Box, Typography } from '@mui/material';
import PlayCircleIcon from '@mui/icons-material/PlayCircleOutline';
import { DataTable, List, TopToolbar, useTranslate } from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { nairaOptions } from '../common/NairaField';
import { listSx } from '../matching-cycles/MatchingCycleList';
import { RunActorField } from '../matching-cycles/RunActorField';
import { RunDueButton } from '../matching-cycles/RunDueButton';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

type Kind = 'global' | 'pool';

const RunDue = ({ kind }: { kind: Kind }) => (
  <RunDueButton
    label={`pos.runs.${kind}.run_due`}
    path={kind === 'global' ? '/admin/global-profit-runs/run-due' : '/admin/profit-pool-runs/run-due'}
    confirmTitle={`pos.runs.${kind}.run_due_title`}
    confirmContent={`pos.runs.${kind}.run_due_content`}
    icon={<PlayCircleIcon />}
    testId={`run-due-${kind}`}
  />
);

const Empty = ({ kind }: { kind: Kind }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 4, textAlign: 'center', width: '100%' }}>
      <Typography color="text.secondary">{translate(`pos.runs.${kind}.empty`)}</Typography>
      <Box sx={{ mt: 2 }}>
        <RunDue kind={kind} />
      </Box>
    </Box>
  );
};

const naira = { locales: 'en-US', options: nairaOptions } as const;

/** Global profit shares (issue 14 item 5): one row per share date, the pool, who ran it and what it credited. */
export const GlobalProfitRunList = () => (
  <List title="pos.runs.global.title" sort={{ field: 'share_date', order: 'DESC' }} perPage={25} sx={listSx} actions={<TopToolbar><RunDue kind="global" /><ExportCsvButton /></TopToolbar>} empty={<Empty kind="global" />}>
    <ResponsiveDataTable phoneColumns={['share_date', 'credited']} rowClick={false} bulkActionButtons={false} sx={{ '& .MuiTableCell-head': { whiteSpace: 'nowrap' } }}>
      <DataTable.Col source="share_date" cellSx={() => ({ whiteSpace: 'nowrap', fontWeight: 600 })}>
        <DateTimeField source="share_date" />
      </DataTable.Col>
      <DataTable.Col source="run_at" cellSx={() => ({ whiteSpace: 'nowrap' })}>
        <DateTimeField source="run_at" showTime />
      </DataTable.Col>
      <DataTable.Col source="run_by" disableSort>
        <RunActorField source="run_by" />
      </DataTable.Col>
      <DataTable.NumberCol source="pool" {...naira} />
      <DataTable.Col source="first_percentage" disableSort render={(r: { first_percentage: number; second_percentage: number }) => `${r.first_percentage}% / ${r.second_percentage}%`} />
      <DataTable.NumberCol source="members_paid" />
      <DataTable.NumberCol source="credited" {...naira} />
      <DataTable.NumberCol source="kept" {...naira} />
    </ResponsiveDataTable>
  </List>
);

/** Profit pools (issue 14 item 5): one row per month, its basis, percentage and pool, who ran it and what it credited. */
export const ProfitPoolRunList = () => (
  <List title="pos.runs.pool.title" sort={{ field: 'month', order: 'DESC' }} perPage={25} sx={listSx} actions={<TopToolbar><RunDue kind="pool" /><ExportCsvButton /></TopToolbar>} empty={<Empty kind="pool" />}>
    <ResponsiveDataTable phoneColumns={['month', 'credited']} rowClick={false} bulkActionButtons={false} sx={{ '& .MuiTableCell-head': { whiteSpace: 'nowrap' } }}>
      <DataTable.Col source="month" cellSx={() => ({ whiteSpace: 'nowrap', fontWeight: 600 })} />
      <DataTable.Col source="run_at" cellSx={() => ({ whiteSpace: 'nowrap' })}>
        <DateTimeField source="run_at" showTime />
      </DataTable.Col>
      <DataTable.Col source="run_by" disableSort>
        <RunActorField source="run_by" />
      </DataTable.Col>
      <DataTable.NumberCol source="basis" {...naira} />
      <DataTable.Col source="percentage" disableSort render={(r: { percentage: number }) => `${r.percentage}%`} />
      <DataTable.NumberCol source="pool" {...naira} />
      <DataTable.NumberCol source="members_paid" />
      <DataTable.NumberCol source="credited" {...naira} />
      <DataTable.NumberCol source="kept" {...naira} />
    </ResponsiveDataTable>
  </List>
);
