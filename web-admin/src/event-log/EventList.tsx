import { Box, Button, Chip, type Theme, Typography, useMediaQuery } from '@mui/material';
import TraceIcon from '@mui/icons-material/AccountTreeOutlined';
import { Link } from 'react-router-dom';
import {
  AutocompleteInput,
  DataTable,
  DateTimeInput,
  FilterButton,
  List,
  ReferenceInput,
  SearchInput,
  SelectInput,
  SimpleList,
  TextInput,
  TopToolbar,
  useBasename,
  useListContext,
  useTranslate,
} from 'react-admin';
import type { EventRecord } from '@portal/services/contracts/audit';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { formatNaira } from '../common/NairaField';
import { usePortalQuery } from '../api/usePortalQuery';
import { WALLET_LINE_TYPES, streamPath, tracePath, when } from './links';

type Actor = { id: string; name: string; email: string; role: string };
type Meta = { actor?: { type?: string; id?: string } };

/** The acting-admin filter: the administrators and finance staff by name. */
const ActorInput = (props: { source: string; alwaysOn?: boolean }) => {
  const actors = usePortalQuery<Actor[]>('/admin/event-actors');
  const choices = (actors.data ?? []).map((a) => ({ id: a.id, name: `${a.name} (${a.email})` }));
  return <SelectInput {...props} choices={choices} isPending={actors.isPending} />;
};

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="member" source="member_id" reference="members" alwaysOn>
    <AutocompleteInput optionText="username" label="resources.events.fields.member_id" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 220 }} />
  </ReferenceInput>,
  <TextInput key="stream" source="stream_id" />,
  <TextInput key="type" source="type" />,
  <ActorInput key="actor" source="actor_id" />,
  <DateTimeInput key="from" source="recorded_at_gte" />,
  <DateTimeInput key="to" source="recorded_at_lte" />,
];

/** The money an event moved, if its data names one (`amount_kobo`, `returned_kobo`...). */
const amountOf = (event: EventRecord): string | null => {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const key = ['amount_kobo', 'returned_kobo', 'amount_paid_kobo', 'registration_value_kobo', 'difference_kobo', 'total_price_kobo'].find((k) => typeof data[k] === 'number');
  return key ? formatNaira((data[key] as number) / 100) : null;
};

const actorOf = (event: EventRecord) => {
  const actor = (event.metadata as Meta | null)?.actor;
  return actor ? `${actor.type ?? ''}${actor.type === 'system' ? `: ${actor.id}` : ''}` : '';
};

const StreamLink = ({ event }: { event: EventRecord }) => {
  const basename = useBasename();
  return (
    <Link to={streamPath(basename, event.stream_id)} onClick={(e) => e.stopPropagation()} style={{ wordBreak: 'break-all' }}>
      {event.stream_id}
    </Link>
  );
};

const TraceButton = ({ event }: { event: EventRecord }) => {
  const basename = useBasename();
  const translate = useTranslate();
  if (!WALLET_LINE_TYPES.has(event.type)) return null;
  return (
    <Button size="small" component={Link} to={tracePath(basename, event.id)} onClick={(e: React.MouseEvent) => e.stopPropagation()} startIcon={<TraceIcon />} data-testid={`trace-${event.id}`}>
      {translate('pos.audit.trace')}
    </Button>
  );
};

/**
 * Newer / older instead of "page 3 of N": the log is never counted (docs/audit.md), so the pager
 * knows only whether another page follows.
 */
const KeysetPagination = () => {
  const { page, perPage, setPage, hasNextPage, hasPreviousPage, data, isPending } = useListContext();
  const translate = useTranslate();
  if (isPending || (!data?.length && page === 1)) return null;
  const from = (page - 1) * perPage + 1;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, p: 1 }}>
      <Typography variant="body2" color="text.secondary" data-testid="events-page-rows">
        {translate('pos.audit.page_rows', { from, to: from + (data?.length ?? 0) - 1 })}
      </Typography>
      <Button size="small" disabled={!hasPreviousPage} onClick={() => setPage(page - 1)} data-testid="events-newer">
        {translate('pos.audit.newer')}
      </Button>
      <Button size="small" disabled={!hasNextPage} onClick={() => setPage(page + 1)} data-testid="events-older">
        {translate('pos.audit.older')}
      </Button>
    </Box>
  );
};

const Actions = () => (
  <TopToolbar>
    <FilterButton />
    <ExportCsvButton />
  </TopToolbar>
);

/**
 * The event log explorer (docs/audit.md): every event, newest first, paged by position (never
 * counted, so pages say "next" rather than "of N"). A row opens the event; its stream opens as a
 * timeline; a wallet line traces to its root.
 */
export const EventList = () => {
  const translate = useTranslate();
  const isSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  return (
    <List
      title="pos.audit.explorer_title"
      filters={filters}
      actions={<Actions />}
      sort={{ field: 'id', order: 'DESC' }}
      perPage={25}
      exporter={false}
      pagination={<KeysetPagination />}
      empty={false}
    >
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1 }}>
        {translate('pos.audit.explorer_help')}
      </Typography>
      {isSmall ? (
        <SimpleList<EventRecord>
          primaryText={(e) => `${e.type} #${e.id}`}
          secondaryText={(e) => `${e.stream_id}${amountOf(e) ? ` · ${amountOf(e)}` : ''}`}
          tertiaryText={(e) => when(e.recorded_at)}
          linkType="show"
          empty={<Box sx={{ p: 2 }}>{translate('pos.audit.no_events')}</Box>}
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false} sort={{ field: 'id', order: 'DESC' }} empty={<Box sx={{ p: 2 }}>{translate('pos.audit.no_events')}</Box>}>
          <DataTable.Col source="id" disableSort />
          <DataTable.Col source="recorded_at" disableSort render={(e: EventRecord) => when(e.recorded_at)} />
          <DataTable.Col source="type" disableSort render={(e: EventRecord) => <Chip size="small" variant="outlined" label={e.type} />} />
          <DataTable.Col source="stream_id" disableSort render={(e: EventRecord) => <StreamLink event={e} />} />
          <DataTable.Col label="pos.audit.actor" disableSort render={actorOf} />
          <DataTable.Col label="pos.members.wallet.amount" disableSort render={(e: EventRecord) => amountOf(e) ?? ''} />
          <DataTable.Col label=" " disableSort render={(e: EventRecord) => <TraceButton event={e} />} />
        </DataTable>
      )}
    </List>
  );
};
