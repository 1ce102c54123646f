import { Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import LockClockIcon from '@mui/icons-material/LockClockOutlined';
import { DataTable, List, SimpleList, TopToolbar, useTranslate } from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import type { AdminMatchingCycle } from '@portal/services/contracts/matching';
import { formatNaira, nairaOptions } from '../common/NairaField';
import { RunActorField } from './RunActorField';
import { RunDueButton } from './RunDueButton';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

/** The list's main column may shrink below the table's width: the table scrolls inside it (layout/Layout.tsx). */
export const listSx = { '& .RaList-main': { minWidth: 0 } } as const;

export const CloseDueCycleButton = () => (
  <RunDueButton
    label="pos.cycles.close_due"
    path="/admin/matching-cycles/close-due"
    confirmTitle="pos.cycles.close_due_title"
    confirmContent="pos.cycles.close_due_content"
    icon={<LockClockIcon />}
    testId="close-due-cycle"
  />
);

const Actions = () => (
  <TopToolbar>
    <ExportCsvButton />
    <CloseDueCycleButton />
  </TopToolbar>
);

const Empty = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 4, textAlign: 'center', width: '100%' }}>
      <Typography color="text.secondary">{translate('pos.cycles.empty')}</Typography>
      <Box sx={{ mt: 2 }}>
        <CloseDueCycleButton />
      </Box>
    </Box>
  );
};

/**
 * Matching cycles (issue 14 item 5): one row per closed cycle, newest first, with who closed it
 * (the schedule or an admin), when it was paid and its totals. A row opens the members' results.
 */
export const MatchingCycleList = () => {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const translate = useTranslate();
  return (
    <List title="pos.cycles.title" sort={{ field: 'cycle_end', order: 'DESC' }} perPage={25} sx={listSx} actions={<Actions />} empty={<Empty />}>
      {phone ? (
        <SimpleList<AdminMatchingCycle>
          linkType="show"
          primaryText={(r) => r.cycle_end}
          secondaryText={(r) => translate('pos.cycles.phone_line', { by: r.closed_by.type === 'system' ? translate('pos.cycles.schedule') : r.closed_by.name, paid: r.members_paid, pairs: r.pairs })}
          tertiaryText={(r) => formatNaira(r.credited)}
        />
      ) : (
        <ResponsiveDataTable phoneColumns={['cycle_end', 'members_paid', 'credited']} rowClick="show" bulkActionButtons={false} sx={{ '& .MuiTableCell-head': { whiteSpace: 'nowrap' } }}>
          <DataTable.Col source="cycle_end" cellSx={() => ({ whiteSpace: 'nowrap', fontWeight: 600 })} />
          <DataTable.Col source="closed_at" cellSx={() => ({ whiteSpace: 'nowrap' })}>
            <DateTimeField source="closed_at" showTime />
          </DataTable.Col>
          <DataTable.Col source="closed_by" disableSort>
            <RunActorField source="closed_by" />
          </DataTable.Col>
          <DataTable.Col source="paid_at" cellSx={() => ({ whiteSpace: 'nowrap' })}>
            <DateTimeField source="paid_at" showTime emptyText="pos.cycles.not_paid_yet" />
          </DataTable.Col>
          <DataTable.NumberCol source="members_paid" />
          <DataTable.NumberCol source="members_capped" />
          <DataTable.NumberCol source="members_not_qualified" />
          <DataTable.NumberCol source="pairs" />
          <DataTable.NumberCol source="credited" locales="en-US" options={nairaOptions} />
          <DataTable.NumberCol source="withheld" locales="en-US" options={nairaOptions} />
        </ResponsiveDataTable>
      )}
    </List>
  );
};
