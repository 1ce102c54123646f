import { Box, Chip, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { useBasename, useTranslate } from 'react-admin';
import type { EventActor, EventSummary } from '@portal/services/contracts/audit';
import { formatInstant } from '../common/dates';

export const eventPath = (basename: string, id: number) => `${basename}/events/${id}/show`;
export const tracePath = (basename: string, id: number) => `${basename}/trace/${id}`;
export const streamPath = (basename: string, streamId: string) => `${basename}/streams/${encodeURIComponent(streamId)}`;

/** The event types a trace starts from: the lines of a wallet. */
export const WALLET_LINE_TYPES = new Set(['BonusCredited', 'BonusWithheld', 'BonusHeld', 'WithdrawalRequested', 'WithdrawalFailed', 'WithdrawalSucceeded', 'WithdrawalSent', 'WalletPaymentMade']);

/** An event's moment, to the second (the back office's date format, common/dates.ts). */
export const when = (iso: string) => formatInstant(iso);

/** An event as a link: its type, number and stream. */
export const EventLink = ({ event }: { event: EventSummary }) => {
  const basename = useBasename();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: 1, py: 0.25 }}>
      <Link to={eventPath(basename, event.id)} data-testid={`event-link-${event.id}`}>
        {event.type} #{event.id}
      </Link>
      <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
        {event.stream_id} · {when(event.recorded_at)}
      </Typography>
    </Box>
  );
};

/** Who acted: a person by name (opening the member), or the system job by its name. */
export const ActorText = ({ actor }: { actor: EventActor | null }) => {
  const translate = useTranslate();
  const basename = useBasename();
  if (!actor) return <>—</>;
  if (actor.type === 'member' && actor.id) {
    return (
      <>
        <Chip size="small" label="member" sx={{ mr: 1 }} />
        <Link to={`${basename}/members/${actor.id}/show`}>{actor.name ?? actor.id}</Link>
      </>
    );
  }
  if (actor.type === 'admin') return <><Chip size="small" color="primary" label="admin" sx={{ mr: 1 }} />{actor.name ?? actor.id}</>;
  if (actor.type === 'system') return <>{translate('pos.audit.system', { id: actor.id ?? '' })}</>;
  return <>{translate('pos.audit.anonymous')}</>;
};
