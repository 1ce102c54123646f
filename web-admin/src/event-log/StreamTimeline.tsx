import { Alert, Box, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { Loading, Title, useBasename, useTranslate } from 'react-admin';
import type { EventRecord } from '@portal/services/contracts/audit';
import { httpClient } from '../api/client';
import { DataView } from './DataView';
import { WALLET_LINE_TYPES, eventPath, tracePath, when } from './links';

const PAGE = 50;

/** A page of one stream, oldest first, continuing after `cursor`. */
async function streamPage(streamId: string, cursor: number | null): Promise<{ rows: EventRecord[]; next: number | null }> {
  const filter = { stream_id: streamId, ...(cursor === null ? {} : { id_gt: cursor }) };
  const query = new URLSearchParams({ filter: JSON.stringify(filter), sort: JSON.stringify(['id', 'ASC']), range: JSON.stringify([0, PAGE - 1]) });
  const { json, headers } = await httpClient(`/api/admin/events?${query}`);
  const next = headers.get('X-Next-Cursor');
  return { rows: json as EventRecord[], next: next === null ? null : Number(next) };
}

const TimelineEntry = ({ event }: { event: EventRecord }) => {
  const basename = useBasename();
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', gap: 2 }} data-testid={`timeline-${event.stream_position}`}>
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
        <Chip size="small" color="primary" label={event.stream_position} />
        <Box sx={{ flex: 1, width: 2, bgcolor: 'divider', my: 0.5 }} />
      </Box>
      <Card variant="outlined" sx={{ flex: 1, mb: 2, minWidth: 0 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1 }}>
            <Box>
              <Link to={eventPath(basename, event.id)}>
                <Typography component="span" variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {event.type}
                </Typography>
              </Link>{' '}
              <Typography component="span" variant="caption" color="text.secondary">
                #{event.id} · {when(event.recorded_at)}
              </Typography>
            </Box>
            {WALLET_LINE_TYPES.has(event.type) ? (
              <Button size="small" component={Link} to={tracePath(basename, event.id)}>
                {translate('pos.audit.trace')}
              </Button>
            ) : null}
          </Stack>
          <Box sx={{ mt: 1 }}>
            <DataView value={event.data} />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
};

/** A stream as a timeline of its own (docs/audit.md): every event of one aggregate, oldest first. */
export const StreamTimeline = () => {
  const { streamId = '' } = useParams();
  const translate = useTranslate();
  const pages = useInfiniteQuery({
    queryKey: ['stream-timeline', streamId],
    queryFn: ({ pageParam }) => streamPage(streamId, pageParam),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next,
  });
  const events = pages.data?.pages.flatMap((p) => p.rows) ?? [];
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title={translate('pos.audit.timeline_title', { stream: streamId })} />
      <Typography variant="h6" component="h2" sx={{ mb: 2, wordBreak: 'break-all' }}>
        {translate('pos.audit.timeline_title', { stream: streamId })}
      </Typography>
      {pages.isPending ? <Loading /> : null}
      {pages.error ? <Alert severity="error">{pages.error.message}</Alert> : null}
      {!pages.isPending && events.length === 0 && !pages.error ? <Alert severity="info">{translate('pos.audit.no_events')}</Alert> : null}
      {events.map((event) => <TimelineEntry key={event.id} event={event} />)}
      {pages.hasNextPage ? (
        <Button variant="outlined" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {translate('pos.audit.load_more')}
        </Button>
      ) : null}
    </Box>
  );
};
