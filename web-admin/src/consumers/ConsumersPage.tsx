import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { Title, usePermissions, useTranslate } from 'react-admin';
import type { ConsumersOverview } from '@portal/services/contracts/operators';
import { errorMessage } from '../api/errors';
import { ConsumerList } from './ConsumerList';
import { OpenQueuesButton } from './OpenQueuesButton';
import { ReadModelList } from './ReadModelList';
import { RecentActions } from './RecentActions';
import { WorkersCard } from './WorkersCard';
import { ago, count, duration } from './format';
import { useConsumersOverview } from './useConsumers';

/**
 * The operators' console (docs/operations.md): every projection and policy with its checkpoint,
 * lag, throughput and error; pause / resume / retry / rebuild for admins (finance staff see it
 * read-only); every read model of the registry, inline ones too, with rebuild; the worker
 * processes; and what operators did lately.
 */
export const ConsumersPage = () => {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const canWrite = permissions === 'admin';
  const overview = useConsumersOverview();
  return (
    <Box sx={{ mt: 2, mb: 4 }}>
      <Title title="pos.consumers.title" />
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, gap: 1, mb: 2 }}>
        <Typography variant="body2" color="text.secondary">
          {translate('pos.consumers.subtitle')}
        </Typography>
        {canWrite && <OpenQueuesButton />}
      </Stack>
      {!canWrite && permissions && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('pos.consumers.read_only')}
        </Alert>
      )}
      {overview.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(overview.error).message}
        </Alert>
      )}
      {overview.isPending && <CircularProgress />}
      {overview.data && <Overview data={overview.data} canWrite={canWrite} />}
    </Box>
  );
};

const Overview = ({ data, canWrite }: { data: ConsumersOverview; canWrite: boolean }) => {
  const translate = useTranslate();
  const stopped = data.consumers.filter((c) => c.status === 'failed').length;
  const furthest = Math.max(0, ...data.consumers.map((c) => c.seconds_behind));
  return (
    <Stack sx={{ gap: 2 }}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', lg: 'repeat(4, 1fr)' } }}>
        <Summary label="pos.consumers.log_head" value={`#${count(data.log.head_position)}`} help={ago(data.log.last_recorded_at)} testId="log-head" />
        <Summary label="pos.consumers.workers_running" value={String(data.workers.length)} testId="workers-running" tone={data.workers.length === 0 ? 'error' : undefined} />
        <Summary label="pos.consumers.stopped" value={String(stopped)} testId="consumers-stopped" tone={stopped > 0 ? 'error' : undefined} />
        <Summary label="pos.consumers.max_behind" value={duration(furthest)} testId="max-behind" />
      </Box>
      <ConsumerList consumers={data.consumers} canWrite={canWrite} />
      <ReadModelList models={data.read_models} canWrite={canWrite} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <WorkersCard workers={data.workers} />
        <RecentActions actions={data.recent_actions} />
      </Box>
    </Stack>
  );
};

const Summary = (props: { label: string; value: string; help?: string; testId: string; tone?: 'error' }) => {
  const translate = useTranslate();
  return (
    <Box data-testid={props.testId} sx={{ p: 2, borderRadius: 2, bgcolor: 'background.paper', boxShadow: 1, borderLeft: 4, borderColor: props.tone === 'error' ? 'error.main' : 'primary.main' }}>
      <Typography variant="caption" color="text.secondary">
        {translate(props.label)}
      </Typography>
      <Typography variant="h6" component="p">
        {props.value}
      </Typography>
      {props.help && (
        <Typography variant="caption" color="text.secondary">
          {props.help}
        </Typography>
      )}
    </Box>
  );
};
