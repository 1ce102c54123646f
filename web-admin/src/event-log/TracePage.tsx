import { Alert, Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import { Link, useParams } from 'react-router-dom';
import { Loading, Title, useBasename, useTranslate } from 'react-admin';
import type { EventTrace, TraceStep } from '@portal/services/contracts/audit';
import { usePortalQuery } from '../api/usePortalQuery';
import { formatNaira } from '../common/NairaField';
import { DataView } from './DataView';
import { ActorText, eventPath, when } from './links';

const Step = ({ step, index, isRoot }: { step: TraceStep; index: number; isRoot: boolean }) => {
  const basename = useBasename();
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ borderColor: isRoot ? 'success.main' : undefined, borderWidth: isRoot ? 2 : 1 }} data-testid={`trace-step-${index}`}>
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1 }}>
          <Box>
            <Link to={eventPath(basename, step.event.id)} data-testid={`trace-step-link-${index}`}>
              <Typography component="span" variant="subtitle1" sx={{ fontWeight: 600 }}>
                {step.event.type}
              </Typography>
            </Link>{' '}
            <Typography component="span" variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              #{step.event.id} · {step.event.stream_id} · {when(step.event.recorded_at)}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            {step.amount !== null ? <Chip label={formatNaira(step.amount)} color="primary" variant="outlined" size="small" /> : null}
            {isRoot ? <Chip label={translate('pos.audit.root')} color="success" size="small" data-testid="trace-root" /> : null}
          </Stack>
        </Stack>
        <Typography variant="body1" sx={{ mt: 1 }} data-testid={`trace-summary-${index}`}>
          {step.summary}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          <ActorText actor={step.actor} />
        </Typography>
        {step.inputs && Object.keys(step.inputs).length > 0 ? (
          <Box sx={{ mt: 1.5 }} data-testid={`trace-inputs-${index}`}>
            <Typography variant="caption" color="text.secondary" sx={{ textTransform: 'uppercase', letterSpacing: 0.4 }}>
              {translate('pos.audit.formula_inputs')}
            </Typography>
            <DataView value={step.inputs} />
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
};

/** The link between two steps: "caused by" (metadata.causation_id) or "settles the request". */
const Connector = ({ link }: { link: TraceStep['link'] }) => {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', pl: 3, py: 1, color: 'text.secondary' }}>
      <ArrowUpwardIcon fontSize="small" />
      <Typography variant="body2">{translate(link === 'settles' ? 'pos.audit.link_settles' : 'pos.audit.link_caused_by')}</Typography>
    </Stack>
  );
};

/**
 * Trace a naira (docs/audit.md): from a wallet line up through each cause to its root — the
 * approved payment, the admin's or member's action, or the schedule — with each bonus's formula.
 */
export const TracePage = () => {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const trace = usePortalQuery<EventTrace>(/^\d+$/.test(id) ? `/admin/events/${id}/trace` : null);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title="pos.audit.trace_title" />
      <Typography variant="h6" component="h2">
        {translate('pos.audit.trace_title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('pos.audit.trace_help')}
      </Typography>
      {trace.isPending ? <Loading /> : null}
      {trace.error ? <Alert severity="error">{trace.error.message}</Alert> : null}
      {trace.data?.steps.map((step, index, steps) => (
        <Box key={step.event.id}>
          <Step step={step} index={index} isRoot={trace.data.root_reached && index === steps.length - 1} />
          {index < steps.length - 1 ? <Connector link={step.link} /> : null}
        </Box>
      ))}
      {trace.data && !trace.data.root_reached ? <Alert severity="warning" sx={{ mt: 2 }}>{translate('pos.audit.not_root')}</Alert> : null}
    </Box>
  );
};
