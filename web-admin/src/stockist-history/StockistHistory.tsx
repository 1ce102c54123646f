import { type ReactNode, useState } from 'react';
import { RecordContextProvider, Title } from 'react-admin';
import {
  Box, Button, Card, CardContent, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Link, Pagination, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography,
} from '@mui/material';
import { usePortalQuery } from '../api/usePortalQuery';
import { CommandButton } from '../common/CommandButton';
import { useCanWrite } from '../packages/common';

/**
 * The transactions screen's Stockist History (seed 002 "Transactions screen" tab 4 and its modals):
 * three stat cards; stockist registrations, pending upgrades and stockist purchases, each paged,
 * with approve / disapprove behind confirmations (admins only; finance staff read).
 */
type Paged<T> = { data: T[]; current_page: number; last_page: number; total: number };
type StockistRow = { id: string; user_uuid: string; store_name: string; username: string; stockist_package: string; store_address: string; store_state: string; store_phone: string; status: string; reg_date: string; payment_id: string; payment_receipt: string | null };
type UpgradeRow = StockistRow & { payment_status: string; payment_date: string; stockist_package_value: number; from_package: string | null };
type ClaimRow = { id: string; username: string; name: string; product_qty: number; worth: number; pickup_type: string; status: string; created_at: string };
type PurchaseRow = { id: string; user_uuid: string; username: string; store_name: string; stockist_package: string; pickup_type: string; total_quantity: number; total_price: number; created_at: string; status: string; payment_receipt: string | null; products: Array<{ name: string; product_qty: number }> };

const naira = (n: number) => `₦${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const when = (iso: string) => new Date(iso).toLocaleString('en-GB');
const storage = (path: string | null) => (path ? `/${path.replace(/^\/+/, '')}` : null);
const statusColor = (s: string) => (s === 'approved' ? 'success' : s === 'processing' || s === 'pending' ? 'info' : 'error');

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Card sx={{ flex: 1, minWidth: 180 }}>
      <CardContent>
        <Typography variant="overline">{label}</Typography>
        <Typography variant="h5" data-testid={testId}>{value}</Typography>
      </CardContent>
    </Card>
  );
}

function Section<T extends { id: string }>({ title, path, empty, head, cells, actions }: { title: string; path: string; empty: string; head: string[]; cells: (row: T, index: number) => ReactNode[]; actions?: (row: T) => ReactNode }) {
  const [page, setPage] = useState(1);
  const list = usePortalQuery<Paged<T>>(`${path}${path.includes('?') ? '&' : '?'}page=${page}`);
  const rows = list.data?.data ?? [];
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" gutterBottom>{title}</Typography>
        {rows.length === 0 ? <Typography color="text.secondary">{list.isPending ? '…' : empty}</Typography> : (
          <TableContainer>
            <Table size="small" aria-label={title}>
              <TableHead><TableRow><TableCell>S/N</TableCell>{head.map((h) => <TableCell key={h}>{h}</TableCell>)}{actions && <TableCell>Actions</TableCell>}</TableRow></TableHead>
              <TableBody>
                {rows.map((row, i) => (
                  <TableRow key={row.id + i} data-testid={`${title}-row`}>
                    <TableCell>{(page - 1) * 10 + i + 1}</TableCell>
                    {cells(row, i).map((c, j) => <TableCell key={j}>{c}</TableCell>)}
                    {actions && <TableCell><RecordContextProvider value={row}><Stack spacing={0.5} sx={{ alignItems: 'flex-start', '& button': { whiteSpace: 'nowrap' } }}>{actions(row)}</Stack></RecordContextProvider></TableCell>}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {(list.data?.last_page ?? 1) > 1 && <Pagination sx={{ mt: 2 }} page={page} count={list.data!.last_page} onChange={(_, p) => setPage(p)} />}
      </CardContent>
    </Card>
  );
}

function ReceiptLink({ path }: { path: string | null }) {
  const [open, setOpen] = useState(false);
  if (!path) return <>—</>;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>POP</Button>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>Stockist POP</DialogTitle>
        <DialogContent><Box component="img" src={storage(path)!} alt="Proof of payment" sx={{ maxWidth: '100%' }} /></DialogContent>
        <DialogActions><Link href={storage(path)!} download>Download</Link><Button onClick={() => setOpen(false)}>Close</Button></DialogActions>
      </Dialog>
    </>
  );
}

function StockistInfo({ row }: { row: { user_uuid: string; store_name: string } }) {
  const [open, setOpen] = useState<'sales' | 'upgrades' | null>(null);
  const sales = usePortalQuery<{ total_purchases: number; total_sales: number }>(open === 'sales' ? `/stockists/${row.user_uuid}/sales-stats` : null);
  const upgrades = usePortalQuery<Array<{ package_name: string; status: string; registration_value: number; created_at: string }>>(open === 'upgrades' ? `/payments/${row.user_uuid}/stockist-upgrade-history` : null);
  return (
    <>
      <Button size="small" onClick={() => setOpen('sales')}>Sales stats</Button>
      <Button size="small" onClick={() => setOpen('upgrades')}>Upgrade history</Button>
      <Dialog open={open !== null} onClose={() => setOpen(null)} fullWidth maxWidth="sm">
        <DialogTitle>{open === 'sales' ? 'Stockist Sales Stats' : 'Stockist Upgrade History'} — {row.store_name}</DialogTitle>
        <DialogContent>
          {open === 'sales' ? (
            <Table size="small"><TableBody>
              <TableRow><TableCell>Total Purchases</TableCell><TableCell>{naira(sales.data?.total_purchases ?? 0)}</TableCell></TableRow>
              <TableRow><TableCell>Total Sales</TableCell><TableCell>{naira(sales.data?.total_sales ?? 0)}</TableCell></TableRow>
            </TableBody></Table>
          ) : (
            <Table size="small">
              <TableHead><TableRow><TableCell>Package</TableCell><TableCell>Status</TableCell><TableCell>Amount</TableCell><TableCell>Upgrade Date</TableCell></TableRow></TableHead>
              <TableBody>{(upgrades.data ?? []).map((u, i) => <TableRow key={i}><TableCell>{u.package_name}</TableCell><TableCell>{u.status}</TableCell><TableCell>{naira(u.registration_value)}</TableCell><TableCell>{when(u.created_at)}</TableCell></TableRow>)}</TableBody>
            </Table>
          )}
        </DialogContent>
        <DialogActions><Button onClick={() => setOpen(null)}>Close</Button></DialogActions>
      </Dialog>
    </>
  );
}

function ViewProducts({ row }: { row: PurchaseRow }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>View Products</Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>Products</DialogTitle>
        <DialogContent>
          <Table size="small"><TableBody>{row.products.map((p) => <TableRow key={p.name}><TableCell>{p.name}</TableCell><TableCell align="right">× {p.product_qty}</TableCell></TableRow>)}</TableBody></Table>
        </DialogContent>
        <DialogActions><Button onClick={() => setOpen(false)}>Close</Button></DialogActions>
      </Dialog>
    </>
  );
}

export const StockistHistory = () => {
  const canWrite = useCanWrite();
  const stats = usePortalQuery<{ stockist_count: number; stockist_purchases_sum: number; stockist_sales_sum: number }>('/stockists/stats');
  const decide = (path: (r: Record<string, any>) => string, label: string, color: 'success' | 'error') => (
    <CommandButton label={label} method="PATCH" color={color} path={path} confirmTitle={`${label}?`} confirmContent={`Are you sure you want to ${label.toLowerCase()}?`} />
  );
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Title title="Stockist History" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Stat label="Total Stockist" value={stats.data?.stockist_count ?? 0} testId="stat-stockists" />
        <Stat label="Total Stockist Purchase" value={naira(stats.data?.stockist_purchases_sum ?? 0)} testId="stat-purchases" />
        <Stat label="Total Stockist Sales" value={naira(stats.data?.stockist_sales_sum ?? 0)} testId="stat-sales" />
      </Stack>
      <Section<StockistRow>
        title="Stockist Registrations" path="/stockists/all" empty="There are no stockists"
        head={['Stockist', 'Username', 'Package', 'Address', 'State', 'Contact', 'Status', 'Date', 'POP']}
        cells={(r) => [r.store_name, r.username, r.stockist_package, r.store_address, <Box key="st" component="span" sx={{ textTransform: 'capitalize' }}>{r.store_state}</Box>, r.store_phone, <Chip key="s" size="small" color={statusColor(r.status)} label={r.status} />, when(r.reg_date), <ReceiptLink key="p" path={r.payment_receipt} />]}
        actions={(r) => (
          <>
            {canWrite && r.status === 'pending' && decide((x) => `/stockists/${x.payment_id}/approve-registration`, 'Approve Stockist', 'success')}
            {canWrite && r.status === 'pending' && decide((x) => `/stockists/${x.payment_id}/disapprove-registration`, 'Disapprove Stockist', 'error')}
            {r.status === 'approved' && <StockistInfo row={r} />}
          </>
        )}
      />
      <Section<UpgradeRow>
        title="Pending Stockist Upgrades" path="/stockists/upgrades" empty="There are no pending stockists Upgrades"
        head={['Stockist', 'Username', 'Package', 'Amount', 'State', 'Contact', 'Status', 'Date', 'POP']}
        cells={(r) => [r.store_name, r.username, `${r.from_package ?? ''} → ${r.stockist_package}`, naira(r.stockist_package_value), r.store_state, r.store_phone, <Chip key="s" size="small" color={statusColor(r.payment_status)} label={r.payment_status} />, when(r.payment_date), <ReceiptLink key="p" path={r.payment_receipt} />]}
        actions={(r) => canWrite && r.payment_status === 'processing' ? (
          <>
            {decide((x) => `/stockists/${x.payment_id}/approve-upgrade`, 'Approve Upgrade', 'success')}
            {decide((x) => `/stockists/${x.payment_id}/disapprove-upgrade`, 'Disapprove Upgrade', 'error')}
          </>
        ) : null}
      />
      <Section<PurchaseRow>
        title="Stockist Purchases" path="/stockists/product-orders" empty="There are no stockist orders"
        head={['Username', 'Stockist Name', 'Package', 'Pickup Type', 'Orders', 'Total', 'Date & Time', 'Status']}
        cells={(r) => [r.username, r.store_name, r.stockist_package, r.pickup_type, <ViewProducts key="v" row={r} />, naira(r.total_price), when(r.created_at), <Chip key="s" size="small" color={statusColor(r.status)} label={r.status} />]}
        actions={(r) => (
          <>
            <ReceiptLink path={r.payment_receipt} />
            {canWrite && r.status === 'processing' && decide((x) => `/product-purchases/${x.id}/approve-stock`, 'Approve Purchase', 'success')}
            {canWrite && r.status === 'processing' && decide((x) => `/product-purchases/${x.id}/disapprove-stock`, 'Disapprove Purchase', 'error')}
          </>
        )}
      />
      <Section<ClaimRow>
        title="Product Claims" path="/product-claims/all?status=processing" empty="There are no orders"
        head={['Username', 'Product', 'Quantity', 'Unit price', 'Pickup Type', 'Date', 'Status']}
        cells={(r) => [r.username, r.name, r.product_qty, naira(r.worth), r.pickup_type, when(r.created_at), <Chip key="s" size="small" color={statusColor(r.status)} label={r.status} />]}
        actions={(r) => canWrite && r.status === 'processing' ? (
          <>
            <CommandButton label="Approve Claim" method="PUT" color="success" path={(x) => `/product-claims/${x.id}/approve`} confirmTitle="Approve Claim?" confirmContent="The whole order is handed over at the head office (no stockist, no rebate)." />
            {r.pickup_type !== 'repurchase_pickup' && <CommandButton label="Decline Claim" method="PUT" color="error" path={(x) => `/product-claims/${x.id}/decline`} confirmTitle="Decline Claim?" confirmContent="The member's pick-up allowance is given back." />}
          </>
        ) : null}
      />
    </Stack>
  );
};
