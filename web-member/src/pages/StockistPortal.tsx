import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert, Avatar, Box, Button, Card, CardContent, FormControl, InputLabel, MenuItem, Select, Skeleton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import { useMember } from '../auth/member-context';
import { stockistApi, stockistQuery, useList, useMyStockist, usePaged, useStockistPackages } from '../api/stockists';
import { PageButtons } from '../components/PageButtons';
import { StatusChip, pickupLabel } from '../components/ProductCart';
import { ReceiptUpload } from '../components/ReceiptUpload';
import { formatNaira } from '../lib/money';
import { formatDate, formatDateTime, formatMonth } from '../lib/dates';
import { storageUrl } from '../lib/storage';
import { toast } from '../lib/notify';
import { CompanyBanks, StoreFields, wrapAnywhere } from './BecomeStockist';

export { StockPurchasePage } from './StockPurchase';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" gutterBottom>{title}</Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/**
 * On a phone each row is a block of "heading: value" lines: five or six columns do not fit 390 px,
 * and a table scrolled sideways looked cut off with nothing to say there was more.
 */
const stackedRow = { display: { xs: 'block', sm: 'table-row' }, py: { xs: 0.75, sm: 0 }, borderBottom: { xs: '1px solid rgba(0, 0, 0, 0.12)', sm: 'none' } } as const;
const stackedCell = {
  display: { xs: 'flex', sm: 'table-cell' },
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: 2,
  textAlign: { xs: 'right', sm: 'left' },
  borderBottom: { xs: 0 },
  py: { xs: 0.5, sm: 0.75 },
  '&::before': { content: { xs: 'attr(data-label)', sm: 'none' }, fontWeight: 600, color: 'text.secondary', textAlign: 'left', flexShrink: 0 },
} as const;

function SimpleTable({ label, head, rows, empty }: { label: string; head: string[]; rows: React.ReactNode[][]; empty: string }) {
  if (rows.length === 0) return <Alert severity="info">{empty}</Alert>;
  return (
    <TableContainer>
      <Table size="small" aria-label={label}>
        <TableHead sx={{ display: { xs: 'none', sm: 'table-header-group' } }}><TableRow>{head.map((h) => <TableCell key={h}>{h}</TableCell>)}</TableRow></TableHead>
        <TableBody>{rows.map((r, i) => <TableRow key={i} data-testid={`${label}-row`} sx={stackedRow}>{r.map((c, j) => <TableCell key={j} data-label={head[j]} sx={stackedCell}>{c}</TableCell>)}</TableRow>)}</TableBody>
      </Table>
    </TableContainer>
  );
}

/** Store profile with package upgrade (seed 001 §2.2). */
export function StockistProfilePage() {
  const user = useMember();
  const queryClient = useQueryClient();
  const mine = useMyStockist(user.uuid);
  const packages = useStockistPackages();
  const [form, setForm] = useState<Record<string, string>>({});
  const [target, setTarget] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (mine.data) setForm({ store_name: mine.data.store_name, store_address: mine.data.store_address, store_state: mine.data.store_state, store_phone: mine.data.store_phone });
  }, [mine.data]);
  const difference = useQuery({ queryKey: ['stockist', 'difference', target], queryFn: async ({ signal }) => (await stockistApi.difference(Number(target), false, signal)).data, enabled: target !== '' });
  const history = useList(['upgrade-history', user.uuid], (signal) => stockistApi.upgradeHistory(user.uuid, signal));
  if (mine.isPending) return <Skeleton variant="rounded" height={300} />;
  if (!mine.data) return <Alert severity="info">You are not a stockist.</Alert>;
  const current = mine.data;
  const save = async () => {
    setBusy(true);
    try {
      const res = await stockistApi.update(current.id, form);
      toast.success(res.message);
      await queryClient.invalidateQueries({ queryKey: ['stockist'] });
    } catch { /* shown */ } finally { setBusy(false); }
  };
  const upgrade = async (file: File) => {
    if (target === '') { toast.warning('Select a package for upgrade'); return false; }
    try {
      const res = await stockistApi.upgrade(current.id, Number(target), file);
      toast.success(res.message);
      setTarget('');
      await queryClient.invalidateQueries({ queryKey: ['stockist'] });
      return true;
    } catch { return false; }
  };
  const higher = (packages.data ?? []).filter((p) => p.id > current.package_id);
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2 }}>
        <Section title="Store profile">
          <Stack spacing={2}>
            <StoreFields value={form} onChange={setForm} />
            <Button variant="contained" onClick={() => void save()} disabled={busy}>{busy ? '...' : 'Update store'}</Button>
          </Stack>
        </Section>
        <Stack spacing={2}>
          <Card data-testid="stockist-preview">
            <CardContent sx={wrapAnywhere}>
              <Typography variant="overline">Your store</Typography>
              <Typography variant="h6">{form.store_name}</Typography>
              <Typography variant="body2">{form.store_address}</Typography>
              <Typography variant="body2" sx={{ textTransform: 'capitalize' }}>{form.store_state}</Typography>
              <Typography variant="body2">Package: {current.stockist_package}</Typography>
              <Typography variant="body2">Contact: {form.store_phone}</Typography>
              <Typography variant="body2">Signee: {current.referrer}</Typography>
            </CardContent>
          </Card>
          <CompanyBanks />
        </Stack>
      </Box>
      <Section title="Upgrade your stockist package">
        {higher.length === 0 ? <Alert severity="info">You hold the highest stockist package.</Alert> : (
          <Stack spacing={2}>
            <FormControl fullWidth>
              <InputLabel id="upgrade-package">New package</InputLabel>
              <Select labelId="upgrade-package" label="New package" value={target === '' ? '' : String(target)} onChange={(e) => setTarget(e.target.value === '' ? '' : Number(e.target.value))}>
                {higher.map((p) => <MenuItem key={p.id} value={String(p.id)}>{p.name}</MenuItem>)}
              </Select>
            </FormControl>
            {difference.data && (
              <Box sx={{ p: 1.5, borderRadius: 2, bgcolor: 'action.hover' }} data-testid="upgrade-summary">
                <Typography>{difference.data.package_name}: pay {formatNaira(difference.data.package_difference)} · rebate {difference.data.rebate}%</Typography>
              </Box>
            )}
            <ReceiptUpload onUpload={upgrade} buttonLabel="Upload receipt and upgrade" />
          </Stack>
        )}
        <Box sx={{ mt: 2 }}>
          <SimpleTable label="Stockist upgrade history" head={['Package', 'Status', 'Amount', 'Date']} empty="There are no upgrades"
            rows={(history.data ?? []).map((r) => [r.package_name, <StatusChip key="s" status={r.status} />, formatNaira(r.registration_value), formatDate(r.created_at)])} />
        </Box>
      </Section>
    </Stack>
  );
}

/** Order processing (seed 001 §2.4): look an order up by code, check stock, approve. */
export function OrderProcessingPage() {
  const user = useMember();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [order, setOrder] = useState<Awaited<ReturnType<typeof stockistApi.lookup>>['data'] | null>(null);
  const [busy, setBusy] = useState(false);
  const [page, setPage] = useState(1);
  const processed = usePaged(['processed', user.uuid, page], (signal) => stockistApi.processed(user.uuid, page, signal));
  const lookup = async () => {
    if (!code.trim()) { toast.warning('Please enter a valid order code to fetch order details'); return; }
    setBusy(true);
    try { setOrder((await stockistApi.lookup(code)).data); } catch { setOrder(null); } finally { setBusy(false); }
  };
  const approve = async () => {
    if (!order) { toast.warning('You cannot proceed without a valid order code'); return; }
    if (order.products.some((p) => !p.in_stock || !p.stock_qty || !p.qualify)) { toast.warning("You don't have enough stock to process this order"); return; }
    setBusy(true);
    try {
      await stockistApi.approveOrder(order.purchase_id);
      toast.success('Order approved successfully');
      setOrder(null);
      setCode('');
      await queryClient.invalidateQueries({ queryKey: ['stockist'] });
    } catch { /* shown */ } finally { setBusy(false); }
  };
  return (
    <Stack spacing={2}>
      <Section title="Find an order">
        <Stack component="form" direction="row" spacing={1} onSubmit={(e) => { e.preventDefault(); void lookup(); }}>
          <TextField size="small" label="Order code" value={code} onChange={(e) => setCode(e.target.value.toUpperCase())} slotProps={{ htmlInput: { maxLength: 12 } }} />
          <Button type="submit" variant="outlined" disabled={busy} sx={{ whiteSpace: "nowrap", flexShrink: 0 }}>Fetch order</Button>
        </Stack>
      </Section>
      {order && (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2 }}>
          <Section title={`Order ${order.order_code}`}>
            <SimpleTable label="Order lines" head={['Product', 'Qty', 'Price', 'In stock', 'Qualifies']} empty="There are no products"
              rows={order.products.map((p) => [p.name, p.product_qty ?? 1, formatNaira(p.price), p.stock_qty, p.qualify ? 'Yes' : 'No'])} />
            {order.status !== 'processing' && <Alert severity="warning" sx={{ mt: 2 }}>This order is {order.status}.</Alert>}
            <Button variant="contained" sx={{ mt: 2 }} onClick={() => void approve()} disabled={busy || order.status !== 'processing'}>Approve Order</Button>
          </Section>
          <Section title="Member">
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Avatar src={storageUrl(order.user.photo_path) ?? undefined} />
              <Box>
                <Typography sx={{ fontWeight: 600 }}>{order.user.first_name} {order.user.last_name}</Typography>
                <Typography variant="body2">@{order.user.username} · {order.user.phone}</Typography>
                <Typography variant="body2">{order.user.email}</Typography>
              </Box>
            </Stack>
          </Section>
        </Box>
      )}
      <Section title="Processed orders">
        <SimpleTable label="Processed orders" head={['Member', 'Phone', 'Type', 'Total', 'Status', 'Date']} empty="There are no processed Orders"
          rows={(processed.data?.data ?? []).map((o) => [`${o.first_name} ${o.last_name}`, o.phone, pickupLabel(o.pickup_type), formatNaira(o.total_price), <StatusChip key="s" status={o.status} />, formatDateTime(o.created_at)])} />
        <PageButtons page={page} lastPage={processed.data?.last_page ?? 1} onChange={setPage} label="Processed order pages" />
      </Section>
    </Stack>
  );
}

/** The stockist record (seed 001 §2.5), with working pagination. */
export function StockistRecordPage() {
  const user = useMember();
  const [page, setPage] = useState(1);
  const stats = useQuery(stockistQuery(['stats', user.uuid], (signal) => stockistApi.stats(user.uuid, signal)));
  const stock = useList(['stock', user.uuid], (signal) => stockistApi.stock(user.uuid, signal));
  const purchases = usePaged(['stock-purchases', user.uuid, page], (signal) => stockistApi.stockPurchases(user.uuid, page, signal));
  const details = useList(['stock-details', user.uuid], (signal) => stockistApi.stockDetails(user.uuid, signal));
  const rebates = useList(['rebates', user.uuid], (signal) => stockistApi.rebates(user.uuid, signal));
  const card = (label: string, value: React.ReactNode, testId: string) => (
    <Card><CardContent><Typography variant="overline">{label}</Typography><Typography variant="h5" data-testid={testId}>{value}</Typography></CardContent></Card>
  );
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, gap: 2 }}>
        {card('Package', stats.data?.package ?? '—', 'stat-package')}
        {card('Rebate', `${stats.data?.rebate ?? 0}%`, 'stat-rebate')}
        {card('Rebate wallet', formatNaira(stats.data?.rebate_bonus ?? 0), 'stat-rebate-wallet')}
      </Box>
      <Section title="Purchase transactions">
        <SimpleTable label="Purchase transactions" head={['Type', 'Items', 'Total', 'Paid by', 'Status', 'Date']} empty="There are no purchases"
          rows={(purchases.data?.data ?? []).map((p) => [pickupLabel(p.pickup_type), p.total_quantity, formatNaira(p.total_price), p.payment_method === 'payment_gateway' ? 'Card' : p.payment_method === 'pop' ? 'Bank transfer' : 'Stockist package', <StatusChip key="s" status={p.status} />, formatDateTime(p.created_at)])} />
        <PageButtons page={page} lastPage={purchases.data?.last_page ?? 1} onChange={setPage} label="Purchase pages" />
      </Section>
      <Section title="Stock record">
        <SimpleTable label="Stock record" head={['Product', 'Cost price', 'Quantity', 'In stock']} empty="There are no stocks"
          rows={(stock.data ?? []).map((s) => [s.name, formatNaira(s.cost_price), s.quantity, s.in_stock ? 'Yes' : 'No'])} />
      </Section>
      <Section title="Purchase history">
        <SimpleTable label="Purchase history" head={['Product', 'Qty', 'Value', 'Type', 'Status', 'Date']} empty="There are no purchases"
          rows={(details.data ?? []).map((d) => [d.name, d.product_qty, formatNaira(d.price), pickupLabel(d.pickup_type), <StatusChip key="s" status={d.status} />, formatDate(d.created_at)])} />
      </Section>
      <Section title="Rebate earnings">
        <SimpleTable label="Rebate earnings" head={['Month', 'Value']} empty="There are no rebate earnings"
          rows={(rebates.data ?? []).map((r) => [formatMonth(r.month || r.created_at), formatNaira(r.value)])} />
      </Section>
    </Stack>
  );
}
