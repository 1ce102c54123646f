import type { ReactNode } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, Grid, Stack, Typography } from '@mui/material';
import TraceIcon from '@mui/icons-material/AccountTreeOutlined';
import TimelineIcon from '@mui/icons-material/TimelineOutlined';
import { Link } from 'react-router-dom';
import { Show, TopToolbar, useBasename, useRecordContext, useTranslate } from 'react-admin';
import { EVENT_LINKS_SHOWN, type EventDetail, type EventSummary } from '@portal/services/contracts/audit';
import { DataView } from './DataView';
import { ActorText, EventLink, WALLET_LINE_TYPES, streamPath, tracePath, when } from './links';

const Panel = ({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) => {
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid={testId}>
      <CardHeader title={translate(title)} slotProps={{ title: { variant: 'subtitle1', fontWeight: 600 } }} sx={{ pb: 0 }} />
      <CardContent>{children}</CardContent>
    </Card>
  );
};

const Labelled = ({ label, children }: { label: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 1.5 }}>
      <Typography variant="caption" color="text.secondary" sx={{ textTransform: 'uppercase', letterSpacing: 0.4 }}>
        {translate(label)}
      </Typography>
      <Box>{children}</Box>
    </Box>
  );
};

const LinkList = ({ events, more, testId }: { events: EventSummary[]; more: boolean; testId: string }) => {
  const translate = useTranslate();
  if (events.length === 0) return <Typography variant="body2" color="text.secondary">{translate('pos.audit.no_effects')}</Typography>;
  return (
    <Box data-testid={testId}>
      {events.map((e) => <EventLink key={e.id} event={e} />)}
      {more ? <Typography variant="caption" color="text.secondary">{translate('pos.audit.more_links', { count: EVENT_LINKS_SHOWN })}</Typography> : null}
    </Box>
  );
};

const Hash = ({ value }: { value: string }) => (
  <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', fontSize: 12 }}>
    {value}
  </Typography>
);

/** The event's header: what, where, when, who; and the ways out (its stream, its trace). */
const Header = ({ event }: { event: EventDetail }) => {
  const translate = useTranslate();
  const basename = useBasename();
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
          <Box>
            <Typography variant="h6" component="h2" data-testid="event-type">
              {event.type} <Typography component="span" color="text.secondary">#{event.id}</Typography>
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {event.stream_id} · {translate('resources.events.fields.stream_position')} {event.stream_position} · {when(event.recorded_at)}
            </Typography>
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              <ActorText actor={event.actor} />
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
            <Button component={Link} to={streamPath(basename, event.stream_id)} startIcon={<TimelineIcon />} variant="outlined" size="small">
              {translate('pos.audit.open_stream')}
            </Button>
            {WALLET_LINE_TYPES.has(event.type) ? (
              <Button component={Link} to={tracePath(basename, event.id)} startIcon={<TraceIcon />} variant="contained" size="small" data-testid="trace-event">
                {translate('pos.audit.trace')}
              </Button>
            ) : null}
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
};

const EventLayout = () => {
  const event = useRecordContext<EventDetail>();
  const translate = useTranslate();
  if (!event) return null;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Header event={event} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Panel title="pos.audit.data" testId="event-data">
            <DataView value={event.data} />
          </Panel>
          <Panel title="pos.audit.metadata" testId="event-metadata">
            <DataView value={event.metadata} />
          </Panel>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Panel title="pos.audit.links" testId="event-links">
            <Labelled label="pos.audit.cause">
              {event.cause ? <Box data-testid="event-cause"><EventLink event={event.cause} /></Box> : <Typography variant="body2" color="text.secondary">{translate('pos.audit.no_cause')}</Typography>}
            </Labelled>
            <Labelled label="pos.audit.effects">
              <LinkList events={event.effects} more={event.effects_more} testId="event-effects" />
            </Labelled>
            <Labelled label="pos.audit.correlated">
              <LinkList events={event.correlated} more={event.correlated_more} testId="event-correlated" />
            </Labelled>
          </Panel>
          <Panel title="pos.audit.integrity" testId="event-integrity">
            <Labelled label="pos.audit.event_id"><Hash value={event.event_id} /></Labelled>
            <Labelled label="pos.audit.hash"><Hash value={event.hash} /></Labelled>
            <Labelled label="pos.audit.prev_hash"><Hash value={event.prev_hash} /></Labelled>
            {event.stream_position === 1 ? <Chip size="small" label="genesis" /> : null}
          </Panel>
        </Grid>
      </Grid>
      {event.schema_version !== 1 ? <Alert severity="info">schema version {event.schema_version}</Alert> : null}
    </Box>
  );
};

const EventTitle = () => {
  const event = useRecordContext<EventDetail>();
  const translate = useTranslate();
  return <>{translate('pos.audit.event_title', { id: event?.id ?? '' })}</>;
};

/** One event (docs/audit.md): its data and metadata laid out, its cause and effects as links, its hashes. */
export const EventShow = () => (
  <Show actions={<TopToolbar />} title={<EventTitle />} component="div">
    <EventLayout />
  </Show>
);
