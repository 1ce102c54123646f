import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  Pagination,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import Grid from '@mui/material/Grid';
import Groups from '@mui/icons-material/GroupsOutlined';
import Hub from '@mui/icons-material/HubOutlined';
import type { DirectDownline, Downline } from '@portal/services/contracts/genealogy';
import { useMember } from '../auth/member-context';
import { useDirectDownlines, useDownlines } from '../api/genealogy';
import { MemberAvatar } from '@portal/web-shared/MemberAvatar';
import { storageUrl } from '../lib/storage';

/** The seed's empty states (seed 000 §8). */
const NO_DIRECT_DOWNLINES = 'There are no direct downlines';
const NO_DOWNLINES = 'There are no downlines';

/** The side a member sits on under their placement parent (not necessarily under the viewer). */
const placedOn = (leg: 'left' | 'right' | null) => (leg ? `placed ${leg}` : null);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function SectionTitle({ icon, title, id, count }: { icon: ReactNode; title: string; id: string; count?: number }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
      {icon}
      <Typography id={id} variant="h6" component="h2">
        {title}
      </Typography>
      {count !== undefined && <Chip size="small" label={count} sx={{ height: 22 }} data-testid={`${id}-count`} />}
    </Stack>
  );
}

function EmptyState({ text, testId }: { text: string; testId: string }) {
  return (
    <Box data-testid={testId} sx={{ py: 4, px: 2, textAlign: 'center', borderRadius: 2.5, border: '1px dashed', borderColor: '#cfd9d3', bgcolor: '#f9fbfa' }}>
      <Groups sx={{ fontSize: 36, color: '#a9b8af' }} />
      <Typography color="text.secondary" sx={{ mt: 0.5, fontWeight: 600 }}>
        {text}
      </Typography>
    </Box>
  );
}

function StatusChip({ active }: { active: boolean }) {
  return (
    <Chip
      size="small"
      label={active ? 'Active' : 'Inactive'}
      sx={{ height: 22, bgcolor: active ? 'rgba(60,179,113,0.14)' : 'rgba(90,107,97,0.12)', color: active ? 'primary.dark' : 'text.secondary' }}
    />
  );
}

function DirectDownlineCard({ member }: { member: DirectDownline }) {
  return (
    <Card data-testid="direct-downline-card" data-username={member.username} sx={{ height: '100%' }}>
      <CardContent sx={{ p: 2.25, '&:last-child': { pb: 2.25 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <MemberAvatar src={storageUrl(member.photo_path)} size={52} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography sx={{ fontWeight: 650 }} noWrap>
              {member.name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              @{member.username}
            </Typography>
          </Box>
        </Stack>
        <Stack direction="row" spacing={0.75} sx={{ mt: 1.75, flexWrap: 'wrap', rowGap: 0.75 }}>
          {member.package && <Chip size="small" color="primary" variant="outlined" label={member.package} sx={{ height: 22 }} data-testid="direct-downline-package" />}
          <StatusChip active={member.active} />
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.25 }}>
          {plural(member.downlines, 'downline', 'downlines')}
        </Typography>
      </CardContent>
    </Card>
  );
}

function DirectDownlines() {
  const user = useMember();
  const direct = useDirectDownlines(user.uuid);
  const rows = direct.data ?? [];
  return (
    <Box component="section" aria-labelledby="direct-downlines" sx={{ mb: { xs: 3, sm: 4 } }}>
      <SectionTitle icon={<Hub color="primary" fontSize="small" />} title="Direct downlines" id="direct-downlines" count={direct.data ? rows.length : undefined} />
      {direct.isPending ? (
        <Grid container spacing={2}>
          {[0, 1, 2].map((i) => (
            <Grid key={i} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Skeleton variant="rounded" height={132} />
            </Grid>
          ))}
        </Grid>
      ) : direct.isError ? (
        <Alert severity="error">Your direct downlines could not be loaded.</Alert>
      ) : rows.length === 0 ? (
        <EmptyState text={NO_DIRECT_DOWNLINES} testId="direct-downlines-empty" />
      ) : (
        <Grid container spacing={2}>
          {rows.map((member) => (
            <Grid key={member.uuid} size={{ xs: 12, sm: 6, lg: 4 }}>
              <DirectDownlineCard member={member} />
            </Grid>
          ))}
        </Grid>
      )}
    </Box>
  );
}

function DownlineRows({ rows }: { rows: Downline[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label="All downlines" data-testid="downlines-table">
        <TableHead>
          <TableRow>
            <TableCell>Member</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Username</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Package</TableCell>
            <TableCell align="right">Downlines</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Email</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.uuid} data-testid="downline-row" data-username={row.username} hover>
              <TableCell>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
                  <MemberAvatar src={storageUrl(row.photo_path)} size={38} />
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {row.name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                      @{row.username}
                    </Typography>
                    {/* On a phone the package column is left out, so the package joins the level line. */}
                    <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                      {[row.package, `Level ${row.level}`, placedOn(row.leg)].filter(Boolean).join(' · ')}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
                      {[`Level ${row.level}`, placedOn(row.leg)].filter(Boolean).join(' · ')}
                    </Typography>
                  </Box>
                </Stack>
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>@{row.username}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{row.package ?? '—'}</TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {row.downlines}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, wordBreak: 'break-all' }}>{row.email}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function AllDownlines() {
  const user = useMember();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const downlines = useDownlines(user.uuid, page);
  const data = downlines.data;
  const setPage = (p: number) => {
    const next = new URLSearchParams(params);
    if (p === 1) next.delete('page');
    else next.set('page', String(p));
    setParams(next);
  };
  const first = data ? (data.current_page - 1) * data.per_page + 1 : 0;
  const last = data ? first + data.data.length - 1 : 0;

  return (
    <Card component="section" aria-labelledby="all-downlines">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <SectionTitle icon={<Groups color="primary" fontSize="small" />} title="All downlines" id="all-downlines" count={data?.total} />
        {downlines.isPending ? (
          <Stack spacing={1}>
            {[0, 1, 2, 3, 4].map((i) => (
              <Skeleton key={i} height={44} />
            ))}
          </Stack>
        ) : downlines.isError || !data ? (
          <Alert severity="error">Your downlines could not be loaded.</Alert>
        ) : data.total === 0 ? (
          <EmptyState text={NO_DOWNLINES} testId="downlines-empty" />
        ) : (
          <>
            <Box sx={{ opacity: downlines.isPlaceholderData ? 0.55 : 1, transition: 'opacity 120ms' }}>
              <DownlineRows rows={data.data} />
            </Box>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 2, alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography variant="body2" color="text.secondary" data-testid="downlines-range">
                {data.data.length ? `Showing ${first}–${last} of ${data.total}` : `Page ${data.current_page} is empty`}
              </Typography>
              {data.last_page > 1 && (
                <Pagination
                  count={data.last_page}
                  page={Math.min(page, data.last_page)}
                  onChange={(_e, p) => setPage(p)}
                  color="primary"
                  shape="rounded"
                  siblingCount={1}
                  boundaryCount={1}
                  aria-label="Downlines pages"
                  data-testid="downlines-pagination"
                />
              )}
            </Stack>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Downlines (seed 000 §2.10): the sponsored members as cards, then the whole placement downline, 5 a page. */
export default function DownlinesPage() {
  return (
    <>
      <Box sx={{ mb: { xs: 2.5, sm: 3 } }}>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.45rem', sm: '1.75rem' } }}>
          Downlines
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          The members you sponsored, and everyone placed below you in your tree.
        </Typography>
      </Box>
      <DirectDownlines />
      <AllDownlines />
    </>
  );
}
