import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  Alert, Avatar, Box, Button, Card, CardContent, Chip, Skeleton, Stack, Tab, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tabs, ToggleButton, ToggleButtonGroup, Typography,
} from '@mui/material';
import { useMember } from '../auth/member-context';
import { type ClaimStatus, stockistApi, usePaged } from '../api/stockists';
import { formatNaira } from '../lib/money';
import { formatDateTime } from '../lib/dates';
import { storageUrl } from '../lib/storage';
import { PageButtons } from './PageButtons';
import { StatusChip, pickupLabel } from './ProductCart';

/** Columns a phone does without (the row keeps product, quantity, status and the actions). */
const wideOnly = { display: { xs: 'none', md: 'table-cell' } } as const;

/** The member's orders, paged, with their details and order-code buttons (seed 000 §2.11). */
function PurchaseHistory({ onCode, onDetails }: { onCode: (id: string) => void; onDetails: (id: string) => void }) {
  const user = useMember();
  const [page, setPage] = useState(1);
  const history = usePaged(['history', user.uuid, page], (signal) => stockistApi.history(user.uuid, page, signal));
  if (history.isPending) return <Skeleton variant="rounded" height={120} />;
  return (
    <>
      {!history.data?.data.length ? <Alert severity="info">There are no orders</Alert> : (
        <TableContainer>
          <Table size="small" aria-label="Purchase history" sx={{ '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={wideOnly}>Date</TableCell><TableCell>Type</TableCell><TableCell align="right" sx={wideOnly}>Items</TableCell><TableCell align="right">Total</TableCell>
                <TableCell sx={wideOnly}>Store</TableCell><TableCell>Status</TableCell><TableCell sx={wideOnly} />
              </TableRow>
            </TableHead>
            <TableBody>
              {history.data.data.map((p) => {
                const actions = (
                  <>
                    <Button size="small" sx={{ px: 0.5, minWidth: 0 }} onClick={() => onDetails(p.id)}>Details</Button>
                    {p.has_order_code && ['processing', 'approved'].includes(p.status) && <Button size="small" sx={{ px: 0.5, minWidth: 0 }} onClick={() => onCode(p.id)}>Order code</Button>}
                  </>
                );
                return (
                  <TableRow key={p.id} data-testid="purchase-row">
                    <TableCell sx={{ ...wideOnly, whiteSpace: 'nowrap' }}>{formatDateTime(p.created_at)}</TableCell>
                    <TableCell>
                      {pickupLabel(p.pickup_type)}
                      <Typography variant="caption" color="text.secondary" component="div" sx={{ display: { md: 'none' } }}>{formatDateTime(p.created_at)}{p.store_name ? ` · ${p.store_name}` : ''}</Typography>
                    </TableCell>
                    <TableCell align="right" sx={wideOnly}>{p.total_quantity}</TableCell>
                    <TableCell align="right">{formatNaira(p.total_price)}</TableCell>
                    <TableCell sx={wideOnly}>{p.store_name ?? '—'}</TableCell>
                    <TableCell>
                      <StatusChip status={p.status} />
                      {/* On a phone the buttons sit under the status instead of a column of their own. */}
                      <Stack sx={{ display: { md: 'none' }, alignItems: 'flex-start', mt: 0.5 }}>{actions}</Stack>
                    </TableCell>
                    <TableCell sx={{ ...wideOnly, whiteSpace: 'nowrap' }}>{actions}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <PageButtons page={page} lastPage={history.data?.last_page ?? 1} onChange={setPage} label="Purchase history pages" />
    </>
  );
}

/** A claim's status in the member's words: an order not yet handed over is uncollected. */
const claimLabel: Record<string, string> = { processing: 'uncollected', approved: 'collected', declined: 'declined' };
function ClaimChip({ status }: { status: string }) {
  const color = status === 'processing' ? 'info' : status === 'approved' ? 'success' : 'error';
  return <Chip size="small" color={color} label={claimLabel[status] ?? status} data-testid="claim-status" />;
}

const filters: Array<{ value: ClaimStatus | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'processing', label: 'Uncollected' },
  { value: 'approved', label: 'Collected' },
  { value: 'declined', label: 'Declined' },
];

/**
 * The member's product claims (seed 000 §3 "Product claim"): each product line of what they
 * ordered, still to collect, collected (approved) or declined, paged by the server and filtered
 * by status (`/product-claims/{id}/claims`).
 */
function ProductClaims({ onCode }: { onCode: (id: string) => void }) {
  const user = useMember();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<ClaimStatus | 'all'>('all');
  const claims = usePaged(['claims', user.uuid, status, page], (signal) => stockistApi.claims(user.uuid, page, status === 'all' ? undefined : status, signal));
  const empty = status === 'all' ? 'You have no product claims yet' : `You have no ${filters.find((f) => f.value === status)!.label.toLowerCase()} product claims`;
  return (
    <>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={status}
        onChange={(_e, value: ClaimStatus | 'all' | null) => { if (value) { setStatus(value); setPage(1); } }}
        aria-label="Claim status"
        sx={{ mb: 2, flexWrap: 'wrap' }}
      >
        {filters.map((f) => <ToggleButton key={f.value} value={f.value}>{f.label}</ToggleButton>)}
      </ToggleButtonGroup>
      {claims.isPending ? <Skeleton variant="rounded" height={120} /> : !claims.data?.data.length ? <Alert severity="info">{empty}</Alert> : (
        <TableContainer>
          <Table size="small" aria-label="Product claims" sx={{ '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={wideOnly}>Date</TableCell><TableCell>Product</TableCell><TableCell align="right">Qty</TableCell>
                <TableCell align="right" sx={wideOnly}>Unit price</TableCell><TableCell align="right" sx={wideOnly}>PV</TableCell><TableCell sx={wideOnly}>Type</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {claims.data.data.map((c) => (
                <TableRow key={`${c.product_purchase_id}-${c.product_id}`} data-testid="claim-row">
                  <TableCell sx={{ ...wideOnly, whiteSpace: 'nowrap' }}>{formatDateTime(c.created_at)}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Avatar variant="rounded" src={storageUrl(c.image) ?? undefined} alt="" sx={{ width: 32, height: 32, bgcolor: 'primary.light', display: { xs: 'none', sm: 'flex' } }}>{c.name.charAt(0)}</Avatar>
                      <Box>
                        <Typography variant="body2">{c.name}</Typography>
                        <Typography variant="caption" color="text.secondary" sx={{ display: { md: 'none' } }}>{pickupLabel(c.pickup_type)} · {formatNaira(c.worth)}</Typography>
                      </Box>
                    </Stack>
                  </TableCell>
                  <TableCell align="right">{c.product_qty}</TableCell>
                  <TableCell align="right" sx={wideOnly}>{formatNaira(c.worth)}</TableCell>
                  <TableCell align="right" sx={wideOnly}>{c.points}</TableCell>
                  <TableCell sx={wideOnly}>{pickupLabel(c.pickup_type)}</TableCell>
                  <TableCell>
                    {/* The order code sits under the status, so a phone's row needs no fourth column. */}
                    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
                      <ClaimChip status={c.status} />
                      {c.status === 'processing' && <Button size="small" sx={{ px: 0.5, minWidth: 0, whiteSpace: 'nowrap' }} onClick={() => onCode(c.product_purchase_id)}>Order code</Button>}
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <PageButtons page={page} lastPage={claims.data?.last_page ?? 1} onChange={setPage} label="Product claim pages" />
    </>
  );
}

const TABS = [{ key: 'history', label: 'Purchase history' }, { key: 'claims', label: 'Product claims' }] as const;

/** The member's orders and, line by line, what is still to collect: two tabs, the choice kept in the address (?records=claims). */
export function PurchaseRecords({ onCode, onDetails }: { onCode: (id: string) => void; onDetails: (id: string) => void }) {
  const [params, setParams] = useSearchParams();
  const tab = params.get('records') === 'claims' ? 'claims' : 'history';
  return (
    <Card id="purchase-records">
      <CardContent>
        <Tabs
          value={tab}
          onChange={(_e, value: string) => setParams(value === 'history' ? {} : { records: value }, { replace: true })}
          aria-label="Purchase records"
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {TABS.map((t) => <Tab key={t.key} value={t.key} label={t.label} id={`records-tab-${t.key}`} aria-controls={`records-panel-${t.key}`} />)}
        </Tabs>
        <Box role="tabpanel" id={`records-panel-${tab}`} aria-labelledby={`records-tab-${tab}`}>
          {tab === 'history' ? <PurchaseHistory onCode={onCode} onDetails={onDetails} /> : <ProductClaims onCode={onCode} />}
        </Box>
      </CardContent>
    </Card>
  );
}
