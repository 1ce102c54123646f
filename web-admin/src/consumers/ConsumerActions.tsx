import { useState } from 'react';
import { Stack } from '@mui/material';
import PauseIcon from '@mui/icons-material/PauseCircleOutline';
import PlayIcon from '@mui/icons-material/PlayCircleOutline';
import ReplayIcon from '@mui/icons-material/Replay';
import BuildIcon from '@mui/icons-material/BuildOutlined';
import { Button, Confirm, useTranslate } from 'react-admin';
import type { ConsumerRecord } from '@portal/services/contracts/operators';
import { type ConsumerAction, useConsumerAction } from './useConsumers';

/** Pause / resume, retry (when stopped on an event) and rebuild (projections), each after a confirmation. Admins only. */
export const ConsumerActions = ({ consumer }: { consumer: ConsumerRecord }) => {
  const translate = useTranslate();
  const mutation = useConsumerAction();
  const [asked, setAsked] = useState<ConsumerAction | null>(null);
  const rebuilding = consumer.rebuild?.status === 'queued' || consumer.rebuild?.status === 'running';
  const actions: Array<{ action: ConsumerAction; icon: React.ReactElement; show: boolean }> = [
    { action: 'pause', icon: <PauseIcon />, show: !consumer.paused },
    { action: 'resume', icon: <PlayIcon />, show: !!consumer.paused },
    { action: 'retry', icon: <ReplayIcon />, show: !!consumer.failure && !consumer.paused },
    { action: 'rebuild', icon: <BuildIcon />, show: consumer.rebuildable },
  ];
  return (
    <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }}>
      {actions
        .filter((a) => a.show)
        .map(({ action, icon }) => (
          <Button
            key={action}
            label={`pos.consumers.${action}`}
            size="small"
            color={action === 'retry' ? 'error' : 'primary'}
            disabled={mutation.isPending || (action === 'rebuild' && rebuilding)}
            onClick={() => setAsked(action)}
            data-testid={`consumer-${action}`}
          >
            {icon}
          </Button>
        ))}
      <Confirm
        isOpen={asked !== null}
        loading={mutation.isPending}
        title={translate(`pos.consumers.${asked ?? 'pause'}_title`, { name: consumer.name })}
        content={translate(`pos.consumers.${asked ?? 'pause'}_content`)}
        onConfirm={() => asked && mutation.mutate({ name: consumer.name, action: asked }, { onSettled: () => setAsked(null) })}
        onClose={() => setAsked(null)}
      />
    </Stack>
  );
};
