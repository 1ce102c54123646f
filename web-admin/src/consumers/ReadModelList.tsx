import { useState } from 'react';
import { Box, Card, CardContent, Chip, Divider, Stack, Typography } from '@mui/material';
import BuildIcon from '@mui/icons-material/BuildOutlined';
import { Button, Confirm, useTranslate } from 'react-admin';
import type { ReadModelRecord } from '@portal/services/contracts/operators';
import { RebuildProgress } from './RebuildProgress';
import { useReadModelRebuild } from './useConsumers';

/**
 * Every read model of the registry (services/src/read-models.ts): the inline ones commands keep
 * (members, admins, payments, settings, the catalogue…) and the asynchronous projections, each
 * with its tables, its latest rebuild as a live bar, and Rebuild for admins.
 */
export const ReadModelList = ({ models, canWrite }: { models: ReadModelRecord[]; canWrite: boolean }) => {
  const translate = useTranslate();
  return (
    <Card data-testid="read-models">
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('pos.consumers.read_models')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('pos.consumers.read_models_help')}
        </Typography>
        <Stack divider={<Divider flexItem />} sx={{ gap: 1.5 }}>
          {models.map((model) => (
            <ReadModelRow key={model.name} model={model} canWrite={canWrite} />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
};

const ReadModelRow = ({ model, canWrite }: { model: ReadModelRecord; canWrite: boolean }) => {
  const translate = useTranslate();
  return (
    <Stack data-testid={`read-model-${model.name}`} direction={{ xs: 'column', md: 'row' }} sx={{ gap: { xs: 1, md: 2 }, alignItems: { md: 'center' } }}>
      <Box sx={{ flex: 2, minWidth: 0 }}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {model.name}
          </Typography>
          <Chip size="small" variant="outlined" label={translate(`pos.consumers.read_model_kind.${model.kind}`)} />
        </Stack>
        <Typography variant="caption" color="text.secondary" component="p">
          {model.description}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
          {translate('pos.consumers.read_model_tables', { tables: model.tables.join(', '), n: model.event_types.length })}
        </Typography>
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>{model.rebuild && <RebuildProgress run={model.rebuild} />}</Box>
      {canWrite && <RebuildButton model={model} />}
    </Stack>
  );
};

const RebuildButton = ({ model }: { model: ReadModelRecord }) => {
  const translate = useTranslate();
  const mutation = useReadModelRebuild();
  const [asking, setAsking] = useState(false);
  const rebuilding = model.rebuild?.status === 'queued' || model.rebuild?.status === 'running';
  return (
    <>
      <Button label="pos.consumers.rebuild" size="small" disabled={mutation.isPending || rebuilding} onClick={() => setAsking(true)} data-testid="read-model-rebuild">
        <BuildIcon />
      </Button>
      <Confirm
        isOpen={asking}
        loading={mutation.isPending}
        title={translate('pos.consumers.rebuild_title', { name: model.name })}
        content={translate(model.kind === 'inline' ? 'pos.consumers.rebuild_inline_content' : 'pos.consumers.rebuild_content')}
        onConfirm={() => mutation.mutate(model.name, { onSettled: () => setAsking(false) })}
        onClose={() => setAsking(false)}
      />
    </>
  );
};
