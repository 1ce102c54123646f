import { Alert, Box, Divider, Grid, Typography } from '@mui/material';
import {
  ArrayField,
  DataTable,
  FunctionField,
  Labeled,
  Show,
  TabbedShowLayout,
  TextField,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { NairaField, formatNaira } from '../common/NairaField';
import { WithdrawalStatusField, statusKey } from './WithdrawalStatusField';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

type HistoryEntry = { id: number; type: string; recorded_at: string; actor_type: string | null; actor_id: string | null; data: Record<string, any> };

const Section = ({ title, children }: { title: string; children: React.ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="overline" color="text.secondary">
        {translate(title)}
      </Typography>
      <Grid container spacing={2} sx={{ mt: 0 }}>
        {children}
      </Grid>
    </Box>
  );
};

const Cell = ({ children }: { children: React.ReactNode }) => <Grid size={{ xs: 12, sm: 6, md: 4 }}>{children}</Grid>;

/** What the current status means, in words (pending = queued for the payout run, and so on). */
const StatusMeaning = () => {
  const record = useRecordContext<{ id: string; status: 'pending' | 'processing' | 'successful' | 'failed'; outcome: 'refused' | 'failed' | 'reversed' | null; failure_reason: string | null }>();
  const translate = useTranslate();
  if (!record) return null;
  const severity = record.status === 'successful' ? 'success' : record.status === 'failed' ? 'error' : 'info';
  return (
    <Alert severity={severity} sx={{ mb: 2 }} data-testid="withdrawal-status-meaning">
      {translate(`pos.finance.status_meaning.${statusKey(record)}`)}
    </Alert>
  );
};

const kobo = (value: unknown) => formatNaira(Number(value ?? 0) / 100);

/** One line on what the event did, from its data. */
const EventDetails = ({ entry }: { entry: HistoryEntry }) => {
  const translate = useTranslate();
  const d = entry.data ?? {};
  const via = (how: unknown) => (typeof how === 'string' ? ` (${translate(`pos.finance.via.${how}`, { _: how })})` : '');
  switch (entry.type) {
    case 'WithdrawalRequested':
      return <>{translate('pos.finance.event_details.requested', { amount: kobo(d.amount_kobo), fee: kobo(d.fee_kobo), net: kobo(d.net_kobo) })}</>;
    case 'WithdrawalSent':
    case 'WithdrawalSucceeded':
      return <>{translate('pos.finance.event_details.sent', { reference: d.transfer_reference ?? '' })}{via(d.via)}</>;
    case 'WithdrawalFailed':
      return <>{translate('pos.finance.event_details.failed', { reason: d.reason ?? '', returned: kobo(d.returned_kobo) })}{via(d.via)}</>;
    default:
      return null;
  }
};

const History = () => {
  const translate = useTranslate();
  return (
    <ArrayField source="history">
      <ResponsiveDataTable phoneColumns={['pos.finance.withdrawals.event_at', 'pos.finance.withdrawals.details']} bulkActionButtons={false} rowClick={false} empty={<Typography sx={{ p: 2 }}>{translate('pos.finance.withdrawals.history_empty')}</Typography>}>
        <DataTable.Col label="pos.finance.withdrawals.event_at" disableSort cellSx={() => ({ whiteSpace: 'nowrap' })}>
          <DateTimeField source="recorded_at" showTime />
        </DataTable.Col>
        <DataTable.Col
          label="pos.finance.withdrawals.event"
          disableSort
          render={(entry: HistoryEntry) => translate(`pos.finance.event.${entry.type}`, { _: entry.type })}
        />
        <DataTable.Col
          label="pos.finance.withdrawals.actor"
          disableSort
          render={(entry: HistoryEntry) => translate(`pos.finance.actor.${entry.actor_type ?? 'system'}`, { _: entry.actor_type ?? '' })}
        />
        <DataTable.Col label="pos.finance.withdrawals.details" disableSort render={(entry: HistoryEntry) => <EventDetails entry={entry} />} />
      </ResponsiveDataTable>
    </ArrayField>
  );
};

const Title = () => {
  const record = useRecordContext<{ id: string; username: string; amount: number }>();
  const translate = useTranslate();
  return <>{record ? `${translate('resources.withdrawals.name', { smart_count: 1 })}: ${record.username} ${formatNaira(record.amount)}` : ''}</>;
};

/**
 * One withdrawal: who, how much (debited, charge, sent), where it is and what that means, the bank
 * transfer, and its history: the withdrawal's own events on the member's wallet stream.
 */
export const WithdrawalShow = () => (
  <Show title={<Title />}>
    <TabbedShowLayout>
      <TabbedShowLayout.Tab label="pos.finance.withdrawals.summary">
        <StatusMeaning />
        <Section title="pos.finance.withdrawals.member">
          <Cell><Labeled><TextField source="username" /></Labeled></Cell>
          <Cell><Labeled><TextField source="full_name" /></Labeled></Cell>
          <Cell>
            <Labeled label="resources.withdrawals.fields.type">
              <FunctionField
                render={(record: { type: string; automatic: boolean }) => (
                  <TypeWithOrigin type={record.type} automatic={record.automatic} />
                )}
              />
            </Labeled>
          </Cell>
        </Section>
        <Divider sx={{ mb: 2 }} />
        <Section title="pos.finance.withdrawals.money">
          <Cell><Labeled><NairaField source="amount" /></Labeled></Cell>
          <Cell><Labeled><NairaField source="charge" /></Labeled></Cell>
          <Cell><Labeled><NairaField source="net_amount" /></Labeled></Cell>
          <Cell><Labeled label="resources.withdrawals.fields.status"><WithdrawalStatusField /></Labeled></Cell>
          <Cell><Labeled><TextField source="reason" emptyText="—" /></Labeled></Cell>
          <Cell><Labeled><TextField source="failure_reason" emptyText="—" /></Labeled></Cell>
        </Section>
        <Divider sx={{ mb: 2 }} />
        <Section title="pos.finance.withdrawals.transfer">
          <Cell><Labeled><TextField source="bank_name" /></Labeled></Cell>
          <Cell><Labeled><TextField source="account_name" /></Labeled></Cell>
          <Cell><Labeled><TextField source="account_number" /></Labeled></Cell>
          <Cell><Labeled><TextField source="transfer_reference" /></Labeled></Cell>
          <Cell><Labeled><TextField source="transfer_code" emptyText="—" /></Labeled></Cell>
        </Section>
        <Divider sx={{ mb: 2 }} />
        <Section title="pos.finance.withdrawals.dates">
          <Cell><Labeled><DateTimeField source="created_at" showTime /></Labeled></Cell>
          <Cell><Labeled><DateTimeField source="payout_date" showTime emptyText="—" /></Labeled></Cell>
          <Cell><Labeled><DateTimeField source="completed_at" showTime emptyText="—" /></Labeled></Cell>
        </Section>
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="pos.finance.withdrawals.history" path="history">
        <History />
      </TabbedShowLayout.Tab>
    </TabbedShowLayout>
  </Show>
);

const TypeWithOrigin = ({ type, automatic }: { type: string; automatic: boolean }) => {
  const translate = useTranslate();
  return (
    <>
      {translate(type === 'payout' ? 'pos.finance.withdrawals.payout_kind' : 'pos.finance.withdrawals.withdrawal_kind')}
      {automatic ? ` (${translate('pos.finance.withdrawals.automatic')})` : ''}
    </>
  );
};
