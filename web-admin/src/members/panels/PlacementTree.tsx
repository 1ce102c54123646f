import { useState } from 'react';
import { Alert, Box, Breadcrumbs, Button, Link, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { useTranslate } from 'react-admin';
import { GENEALOGY_DEFAULT_DEPTH, type GenealogyNode } from '@portal/services/contracts/genealogy';
import { GenealogyChart, pathTo } from '@portal/web-shared/genealogy';
import { usePortalQuery } from '../../api/usePortalQuery';
import { useMember } from '../common';

const LEVEL_CHOICES = [1, 2, 3, 4, 5] as const;

/** A member on the way down from the member shown to the one at the top of the chart. */
type Step = { uuid: string; username: string };

/**
 * The member's placement tree as the member sees it (the shared org chart). Unlike the member, an
 * admin may read anyone's genealogy, so choosing a downline re-roots by reading that member's tree;
 * the trail leads back up.
 */
export const PlacementTree = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const [levels, setLevels] = useState<number>(GENEALOGY_DEFAULT_DEPTH);
  const [trail, setTrail] = useState<Step[]>([{ uuid: member.id, username: member.username }]);
  const top = trail.at(-1)!;
  const tree = usePortalQuery<GenealogyNode>(`/users/${top.uuid}/genealogy?depth=${levels}`);

  const open = (node: GenealogyNode) => {
    if (!tree.data || node.uuid === top.uuid) return;
    const below = pathTo(tree.data, node.uuid).slice(1).map(({ uuid, username }) => ({ uuid, username }));
    setTrail([...trail, ...below]);
  };

  return (
    <Box data-testid="admin-genealogy-chart">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between', mb: 1.5 }}>
        <Typography variant="body2" color="text.secondary">
          {translate('pos.members.genealogy.chart_hint')}
        </Typography>
        <TextField select size="small" label={translate('pos.members.genealogy.levels')} value={levels} onChange={(e) => setLevels(Number(e.target.value))} sx={{ width: { xs: '100%', sm: 160 }, flexShrink: 0 }}>
          {LEVEL_CHOICES.map((n) => (
            <MenuItem key={n} value={n}>
              {n}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {trail.length > 1 && (
        <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }} data-testid="genealogy-trail">
          <Button size="small" startIcon={<ArrowBack />} onClick={() => setTrail(trail.slice(0, -1))}>
            {translate('pos.members.genealogy.up')}
          </Button>
          <Breadcrumbs aria-label={translate('pos.members.genealogy.trail')} maxItems={4}>
            {trail.map((step, i) =>
              i === trail.length - 1 ? (
                <Typography key={step.uuid} sx={{ fontWeight: 600, fontSize: '0.875rem' }}>
                  @{step.username}
                </Typography>
              ) : (
                <Link key={step.uuid} component="button" type="button" onClick={() => setTrail(trail.slice(0, i + 1))} sx={{ fontSize: '0.875rem' }}>
                  @{step.username}
                </Link>
              ),
            )}
          </Breadcrumbs>
        </Stack>
      )}
      <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden', bgcolor: '#f7faf8', backgroundImage: 'radial-gradient(circle, rgba(23,38,29,0.07) 1px, transparent 1px)', backgroundSize: '22px 22px' }}>
        {tree.isPending ? (
          <Skeleton variant="rectangular" height={380} />
        ) : tree.isError ? (
          <Alert severity="error" sx={{ m: 2 }} action={<Button onClick={() => void tree.refetch()}>{translate('pos.members.genealogy.retry')}</Button>}>
            {translate('pos.members.genealogy.load_failed')}
          </Alert>
        ) : (
          <GenealogyChart key={`${top.uuid}:${levels}`} top={tree.data} levels={levels} fetchedDepth={levels} onOpen={open} />
        )}
      </Box>
    </Box>
  );
};
