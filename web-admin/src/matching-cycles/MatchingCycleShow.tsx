import { Box, Chip, Grid, Tooltip, Typography } from '@mui/material';
import {
  DataTable,
  Labeled,
  NumberField,
  Pagination,
  ReferenceManyField,
  Show,
  SimpleShowLayout,
  TextField,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { NairaField, nairaOptions } from '../common/NairaField';
import { RunActorField } from './RunActorField';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

const Cell = ({ children }: { children: React.ReactNode }) => <Grid size={{ xs: 6, sm: 4, md: 3 }}>{children}</Grid>;

const outcomeColors = { paid: 'success', capped: 'warning', not_qualified: 'default' } as const;

type Result = { outcome: 'paid' | 'capped' | 'not_qualified'; reason_text: string | null; carried_left: number; carried_right: number };

const OutcomeChip = (_props: { label?: string }) => {
  const record = useRecordContext<Result>();
  const translate = useTranslate();
  if (!record) return null;
  return <Chip size="small" color={outcomeColors[record.outcome]} variant={record.outcome === 'paid' ? 'filled' : 'outlined'} label={translate(`pos.cycles.outcome.${record.outcome}`)} />;
};

const ReasonText = (_props: { label?: string }) => {
  const record = useRecordContext<Result>();
  if (!record) return null;
  return (
    <Typography variant="body2" color={record.reason_text ? 'text.primary' : 'text.secondary'} sx={{ minWidth: 200 }}>
      {record.reason_text ?? '—'}
    </Typography>
  );
};

const pv = (n: number) => `${n.toLocaleString('en-US')}`;

const Legs = ({ left, right }: { left: number; right: number; label?: string }) => (
  <Tooltip title={`Left ${pv(left)} PV · Right ${pv(right)} PV`}>
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      {pv(left)} / {pv(right)}
    </Box>
  </Tooltip>
);

const Title = () => {
  const record = useRecordContext<{ cycle_end: string }>();
  const translate = useTranslate();
  return <>{record ? translate('pos.cycles.show_title', { date: record.cycle_end }) : ''}</>;
};

/** One closed cycle: its terms, who closed it, its totals, and each member's result (paged). */
export const MatchingCycleShow = () => {
  const translate = useTranslate();
  return (
    <Show title={<Title />}>
      <SimpleShowLayout>
        <Grid container spacing={2} sx={{ width: '100%' }}>
          <Cell><Labeled><TextField source="cycle_end" /></Labeled></Cell>
          <Cell><Labeled><DateTimeField source="closed_at" showTime /></Labeled></Cell>
          <Cell><Labeled label="resources.matching-cycles.fields.closed_by"><RunActorField source="closed_by" /></Labeled></Cell>
          <Cell><Labeled><DateTimeField source="paid_at" showTime emptyText="pos.cycles.not_paid_yet" /></Labeled></Cell>
          <Cell><Labeled><NumberField source="total_pv" /></Labeled></Cell>
          <Cell><Labeled><NumberField source="percent" /></Labeled></Cell>
          <Cell><Labeled><NairaField source="unit_point_value" /></Labeled></Cell>
          <Cell><Labeled><NumberField source="frequency_days" /></Labeled></Cell>
          <Cell><Labeled><NumberField source="members_paid" /></Labeled></Cell>
          <Cell><Labeled><NumberField source="members_capped" /></Labeled></Cell>
          <Cell><Labeled><NumberField source="members_not_qualified" /></Labeled></Cell>
          <Cell><Labeled><NumberField source="pairs" /></Labeled></Cell>
          <Cell><Labeled><NairaField source="credited" /></Labeled></Cell>
          <Cell><Labeled><NairaField source="withheld" /></Labeled></Cell>
        </Grid>
        <Typography variant="h6" sx={{ mt: 2 }}>
          {translate('pos.cycles.results')}
        </Typography>
        <ReferenceManyField label={false} reference="matching-results" target="cycle_end" source="cycle_end" sort={{ field: 'credited', order: 'DESC' }} perPage={25} pagination={<Pagination />}>
          <ResponsiveDataTable phoneColumns={['username', 'outcome', 'credited']}
            bulkActionButtons={false}
            rowClick={false}
            empty={<Typography sx={{ p: 2 }} color="text.secondary">{translate('pos.cycles.results_empty')}</Typography>}
            sx={{ '& .MuiTableCell-head': { whiteSpace: 'nowrap' } }}
          >
            <DataTable.Col source="username" label="resources.matching-results.fields.username" />
            <DataTable.Col source="outcome" label="resources.matching-results.fields.outcome">
              <OutcomeChip />
            </DataTable.Col>
            <DataTable.Col label="resources.matching-results.fields.legs" disableSort render={(r: { left_pv: number; right_pv: number }) => <Legs left={r.left_pv} right={r.right_pv} />} />
            <DataTable.NumberCol source="pairs" label="resources.matching-results.fields.pairs" />
            <DataTable.NumberCol source="credited" label="resources.matching-results.fields.credited" locales="en-US" options={nairaOptions} />
            <DataTable.NumberCol source="withheld" label="resources.matching-results.fields.withheld" locales="en-US" options={nairaOptions} />
            <DataTable.Col label="resources.matching-results.fields.carried" disableSort render={(r: Result) => <Legs left={r.carried_left} right={r.carried_right} />} />
            <DataTable.Col source="reason" label="resources.matching-results.fields.reason" disableSort>
              <ReasonText />
            </DataTable.Col>
          </ResponsiveDataTable>
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
};
