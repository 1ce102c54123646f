import type { HTMLAttributes, ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Box, Breadcrumbs, Button, Card, CardContent, Link, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import Grid from '@mui/material/Grid';
import AccountTree from '@mui/icons-material/AccountTreeOutlined';
import ArrowBack from '@mui/icons-material/ArrowBack';
import type { GenealogyNode } from '@portal/services/contracts/genealogy';
import { GENEALOGY_MAX_DEPTH } from '@portal/services/contracts/genealogy-depth';
import { useMember } from '../auth/member-context';
import { useGenealogy } from '../api/genealogy';
import { GenealogyChart, pathTo } from '@portal/web-shared/genealogy';

const LEVEL_CHOICES = [1, 2, 3, 4, 5] as const;
const DEFAULT_LEVELS = 3;

function levelsFrom(value: string | null): number {
  const n = Number(value);
  return LEVEL_CHOICES.includes(n as (typeof LEVEL_CHOICES)[number]) ? n : DEFAULT_LEVELS;
}

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 1.5, sm: 2.5 }, '&:last-child': { pb: { xs: 1.5, sm: 2.5 } } }}>
        <Typography variant="body2" color="text.secondary" sx={{ fontSize: { xs: '0.8rem', sm: '0.875rem' } }} noWrap>
          {label}
        </Typography>
        <Typography data-testid={testId} sx={{ mt: 0.25, fontSize: { xs: '1.25rem', sm: '1.6rem' }, fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

function Legend() {
  const dot = (color: string) => <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: color, display: 'inline-block' }} />;
  return (
    <Stack direction="row" spacing={2.5} sx={{ flexWrap: 'wrap', rowGap: 1, color: 'text.secondary', fontSize: '0.8rem', alignItems: 'center' }}>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
        {dot('#3cb371')}
        <span>Active</span>
      </Stack>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
        {dot('#b8c2bc')}
        <span>Inactive (not yet paid)</span>
      </Stack>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
        <Box component="span" sx={{ width: 16, height: 12, borderRadius: 0.75, border: '2px dashed #cfd9d3', display: 'inline-block' }} />
        <span>Empty slot</span>
      </Stack>
    </Stack>
  );
}

/** Network structure (seed 000 §2.8): the member's placement tree as a pannable organisation chart. */
export default function GenealogyPage() {
  const user = useMember();
  const [params, setParams] = useSearchParams();
  const levels = levelsFrom(params.get('levels'));
  // One read of the deepest chart the api gives; re-rooting on a downline happens inside it, since
  // a member may only read their own genealogy.
  const genealogy = useGenealogy(user.uuid, GENEALOGY_MAX_DEPTH);
  const me = genealogy.data;
  const trail = me ? pathTo(me, params.get('member') ?? me.uuid) : [];
  // A member not in the tree (an old link, a moved subtree) shows the tree from the top.
  const path = trail.length ? trail : me ? [me] : [];
  const top = path.at(-1);

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setParams(next);
  };
  const showAtTop = (node: GenealogyNode) => {
    if (node.uuid === top?.uuid) return;
    update({ member: node.uuid === me?.uuid ? null : node.uuid });
  };

  return (
    <>
      <Box sx={{ mb: { xs: 2.5, sm: 3 } }}>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.45rem', sm: '1.75rem' } }}>
          Network structure
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Your placement tree, left and right legs. Drag to move it, scroll or pinch to zoom, and choose a member to see their part of the tree.
        </Typography>
      </Box>

      <Grid container spacing={{ xs: 1.5, sm: 2.5 }} sx={{ mb: { xs: 2, sm: 3 } }}>
        <Grid size={{ xs: 4 }}>
          <Stat label="Left leg" value={me ? me.left_count : <Skeleton width={48} />} testId="genealogy-left-count" />
        </Grid>
        <Grid size={{ xs: 4 }}>
          <Stat label="Right leg" value={me ? me.right_count : <Skeleton width={48} />} testId="genealogy-right-count" />
        </Grid>
        <Grid size={{ xs: 4 }}>
          <Stat label="Downlines" value={me ? me.downlines : <Skeleton width={48} />} testId="genealogy-total-count" />
        </Grid>
      </Grid>

      <Card component="section" aria-labelledby="genealogy-chart-title">
        <CardContent sx={{ p: { xs: 2, sm: 2.5 }, pb: { xs: 1.5, sm: 2 } }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between' }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
              <AccountTree color="primary" fontSize="small" />
              <Typography id="genealogy-chart-title" variant="h6" component="h2" noWrap>
                Organisation chart
              </Typography>
            </Stack>
            <TextField
              select
              size="small"
              label="Levels shown"
              value={levels}
              onChange={(e) => update({ levels: String(e.target.value) === String(DEFAULT_LEVELS) ? null : String(e.target.value) })}
              sx={{ width: { xs: '100%', sm: 160 } }}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'genealogy-levels' } as HTMLAttributes<HTMLDivElement> } }}
            >
              {LEVEL_CHOICES.map((n) => (
                <MenuItem key={n} value={n}>
                  {n} {n === 1 ? 'level' : 'levels'}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {path.length > 1 && (
            <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }} data-testid="genealogy-trail">
              <Button size="small" startIcon={<ArrowBack />} onClick={() => showAtTop(path.at(-2)!)}>
                Up one level
              </Button>
              <Breadcrumbs aria-label="Position in your tree" maxItems={4} sx={{ fontSize: '0.875rem' }}>
                {path.map((node, i) =>
                  i === path.length - 1 ? (
                    <Typography key={node.uuid} color="text.primary" sx={{ fontWeight: 600, fontSize: 'inherit' }}>
                      @{node.username}
                    </Typography>
                  ) : (
                    <Link key={node.uuid} component="button" type="button" onClick={() => showAtTop(node)} sx={{ fontSize: 'inherit' }}>
                      {i === 0 ? 'You' : `@${node.username}`}
                    </Link>
                  ),
                )}
              </Breadcrumbs>
            </Stack>
          )}
        </CardContent>
        <Box sx={{ borderTop: 1, borderBottom: 1, borderColor: 'divider', bgcolor: '#f7faf8', backgroundImage: 'radial-gradient(circle, rgba(23,38,29,0.07) 1px, transparent 1px)', backgroundSize: '22px 22px' }}>
          {genealogy.isPending ? (
            <Box sx={{ p: 3, height: 'min(68vh, 640px)', minHeight: 380 }}>
              <Skeleton variant="rounded" height="100%" />
            </Box>
          ) : genealogy.isError || !top ? (
            <Box sx={{ p: 3 }}>
              <Alert severity="error" action={<Button onClick={() => void genealogy.refetch()}>Try again</Button>}>
                Your network could not be loaded.
              </Alert>
            </Box>
          ) : (
            <>
              {me && me.downlines === 0 && (
                <Alert severity="info" sx={{ m: 2, mb: 0 }} data-testid="genealogy-empty-state">
                  There are no downlines
                </Alert>
              )}
              <GenealogyChart key={`${top.uuid}:${levels}`} top={top} levels={levels} fetchedDepth={GENEALOGY_MAX_DEPTH} onOpen={showAtTop} />
            </>
          )}
        </Box>
        <Box sx={{ px: { xs: 2, sm: 2.5 }, py: 1.5 }}>
          <Legend />
        </Box>
      </Card>
    </>
  );
}
