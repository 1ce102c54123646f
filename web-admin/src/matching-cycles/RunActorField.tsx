import { Box, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { RunActor } from '@portal/services/contracts/matching';

/** Who closed a cycle or ran a share: "Schedule", or the admin's name with their e-mail beneath. */
export const RunActorField = ({ source }: { source: 'closed_by' | 'run_by'; label?: string }) => {
  const record = useRecordContext<Record<string, RunActor>>();
  const translate = useTranslate();
  const actor = record?.[source];
  if (!actor) return null;
  if (actor.type === 'system') return <>{translate('pos.cycles.schedule')}</>;
  return (
    <Box>
      <Typography variant="body2">{actor.name}</Typography>
      {actor.email && (
        <Typography variant="caption" color="text.secondary">
          {actor.email}
        </Typography>
      )}
    </Box>
  );
};
