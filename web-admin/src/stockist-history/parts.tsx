import { formatDateTime } from '../common/dates';
import { type ReactNode, useState } from 'react';
import { RecordContextProvider, useTranslate } from 'react-admin';
import {
  Box, Button, Card, CardContent, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Divider, Link, Pagination, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography,
} from '@mui/material';
import { usePortalQuery } from '../api/usePortalQuery';
import { usePhoneLayout } from '../common/ResponsiveDataTable';

/** The messages of the Stockist History tab (i18n/transactions.ts). */
export const m = (key: string) => `pos.transactions.stockist_history.${key}`;

export type Paged<T> = { data: T[]; current_page: number; last_page: number; total: number };
export const naira = (n: number) => `₦${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
export const when = (iso: string) => formatDateTime(iso);
const storage = (path: string | null) => (path ? `/${path.replace(/^\/+/, '')}` : null);
const statusColor = (s: string) => (s === 'approved' ? 'success' : s === 'processing' || s === 'pending' ? 'info' : s === 'awaiting_payment' ? 'warning' : 'error');

export const StatusChip = ({ status }: { status: string }) => <Chip size="small" color={statusColor(status)} label={status} />;

/** A cell of two lines: the value, and a smaller line under it (so the table needs fewer columns). */
export const TwoLines = ({ main, sub }: { main: ReactNode; sub?: ReactNode }) => (
  <Box sx={{ minWidth: 0 }}>
    <Box sx={{ overflowWrap: 'anywhere' }}>{main}</Box>
    {sub !== undefined && sub !== null && <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'anywhere' }}>{sub}</Typography>}
  </Box>
);

export function Stat({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  const translate = useTranslate();
  return (
    <Card sx={{ flex: 1, minWidth: 0 }}>
      <CardContent>
        <Typography variant="overline">{translate(label)}</Typography>
        <Typography variant="h5" data-testid={testId}>{value}</Typography>
      </CardContent>
    </Card>
  );
}

export type Column<T> = { label: string; cell: (row: T) => ReactNode };

/**
 * One paged list of the tab. At desktop widths a table whose cells wrap (two-line cells instead
 * of more columns), so it fits beside the side tabs at 1280 px without scrolling sideways; on a
 * phone each row is a card of label/value lines with its actions under them.
 */
export function Section<T extends { id: string }>({ name, path, columns, actions }: { name: 'registrations' | 'upgrades' | 'purchases' | 'claims'; path: string; columns: Column<T>[]; actions?: (row: T) => ReactNode }) {
  const translate = useTranslate();
  const phone = usePhoneLayout();
  const [page, setPage] = useState(1);
  const list = usePortalQuery<Paged<T>>(`${path}${path.includes('?') ? '&' : '?'}page=${page}`);
  const rows = list.data?.data ?? [];
  const title = translate(m(`sections.${name}`));
  // The row's test id keeps the English title whatever the language, so tests find it.
  const testId = `${defaultTitles[name]}-row`;
  const serial = (i: number) => (page - 1) * 10 + i + 1;
  const withActions = (row: T) => actions && <RecordContextProvider value={row}><Stack direction={{ xs: 'row', sm: 'column' }} spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start', '& button': { whiteSpace: 'nowrap' } }}>{actions(row)}</Stack></RecordContextProvider>;
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>{title}</Typography>
        {rows.length === 0 ? <Typography color="text.secondary">{list.isPending ? '…' : translate(m(`empty.${name}`))}</Typography> : phone ? (
          <Stack divider={<Divider />} spacing={1.5} aria-label={title} role="list">
            {rows.map((row, i) => (
              <Box key={row.id + i} role="listitem" data-testid={testId}>
                <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(88px, 35%) 1fr', columnGap: 1.5, rowGap: 0.5 }}>
                  <Typography component="dt" variant="body2" color="text.secondary">{translate(m('columns.serial'))}</Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0 }}>{serial(i)}</Typography>
                  {columns.map((c) => (
                    <Box key={c.label} sx={{ display: 'contents' }}>
                      <Typography component="dt" variant="body2" color="text.secondary">{translate(c.label)}</Typography>
                      <Box component="dd" sx={{ m: 0, typography: 'body2', minWidth: 0 }}>{c.cell(row)}</Box>
                    </Box>
                  ))}
                </Box>
                {actions && <Box sx={{ mt: 1 }}>{withActions(row)}</Box>}
              </Box>
            ))}
          </Stack>
        ) : (
          <TableContainer>
            <Table size="small" aria-label={title} sx={{ '& td, & th': { px: 1, verticalAlign: 'top' } }}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate(m('columns.serial'))}</TableCell>
                  {columns.map((c) => <TableCell key={c.label}>{translate(c.label)}</TableCell>)}
                  {actions && <TableCell>{translate(m('columns.actions'))}</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row, i) => (
                  <TableRow key={row.id + i} data-testid={testId}>
                    <TableCell>{serial(i)}</TableCell>
                    {columns.map((c) => <TableCell key={c.label}>{c.cell(row)}</TableCell>)}
                    {actions && <TableCell>{withActions(row)}</TableCell>}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {(list.data?.last_page ?? 1) > 1 && <Pagination sx={{ mt: 2 }} page={page} count={list.data!.last_page} onChange={(_, p) => setPage(p)} aria-label={translate(m('pages'), { section: title })} />}
      </CardContent>
    </Card>
  );
}
const defaultTitles = { registrations: 'Stockist Registrations', upgrades: 'Pending Stockist Upgrades', purchases: 'Stockist Purchases', claims: 'Product Claims' } as const;

/** The POP modal: the receipt, with a download link. */
export function ReceiptLink({ path }: { path: string | null }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!path) return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>{translate(m('modals.pop'))}</Button>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>{translate(m('modals.pop_title'))}</DialogTitle>
        <DialogContent><Box component="img" src={storage(path)!} alt={translate(m('modals.pop_alt'))} sx={{ maxWidth: '100%' }} /></DialogContent>
        <DialogActions><Link href={storage(path)!} download>{translate(m('modals.download'))}</Link><Button onClick={() => setOpen(false)}>{translate(m('modals.close'))}</Button></DialogActions>
      </Dialog>
    </>
  );
}

/** Stockist Sales Stats and Stockist Upgrade History, the two modals of an approved stockist's row. */
export function StockistInfo({ row }: { row: { user_uuid: string; store_name: string } }) {
  const translate = useTranslate();
  const [open, setOpen] = useState<'sales' | 'upgrades' | null>(null);
  const sales = usePortalQuery<{ total_purchases: number; total_sales: number }>(open === 'sales' ? `/stockists/${row.user_uuid}/sales-stats` : null);
  const upgrades = usePortalQuery<Array<{ package_name: string; status: string; registration_value: number; created_at: string }>>(open === 'upgrades' ? `/payments/${row.user_uuid}/stockist-upgrade-history` : null);
  return (
    <>
      <Button size="small" onClick={() => setOpen('sales')}>{translate(m('modals.sales_stats'))}</Button>
      <Button size="small" onClick={() => setOpen('upgrades')}>{translate(m('modals.upgrade_history'))}</Button>
      <Dialog open={open !== null} onClose={() => setOpen(null)} fullWidth maxWidth="sm">
        <DialogTitle>{translate(m(open === 'upgrades' ? 'modals.upgrade_history_title' : 'modals.sales_stats_title'), { store: row.store_name })}</DialogTitle>
        <DialogContent>
          {open === 'sales' ? (
            <Table size="small" aria-label={translate(m('modals.sales_stats'))}><TableBody>
              <TableRow><TableCell>{translate(m('modals.total_purchases'))}</TableCell><TableCell data-testid="sales-total-purchases">{naira(sales.data?.total_purchases ?? 0)}</TableCell></TableRow>
              <TableRow><TableCell>{translate(m('modals.total_sales'))}</TableCell><TableCell data-testid="sales-total-sales">{naira(sales.data?.total_sales ?? 0)}</TableCell></TableRow>
            </TableBody></Table>
          ) : upgrades.data && upgrades.data.length === 0 ? <Typography color="text.secondary">{translate(m('modals.no_upgrades'))}</Typography> : (
            <Table size="small" aria-label={translate(m('modals.upgrade_history'))}>
              <TableHead><TableRow><TableCell>{translate(m('columns.package'))}</TableCell><TableCell>{translate(m('columns.status'))}</TableCell><TableCell>{translate(m('columns.amount'))}</TableCell><TableCell>{translate(m('modals.upgrade_date'))}</TableCell></TableRow></TableHead>
              <TableBody>{(upgrades.data ?? []).map((u, i) => <TableRow key={i}><TableCell>{u.package_name}</TableCell><TableCell>{u.status}</TableCell><TableCell>{naira(u.registration_value)}</TableCell><TableCell>{when(u.created_at)}</TableCell></TableRow>)}</TableBody>
            </Table>
          )}
        </DialogContent>
        <DialogActions><Button onClick={() => setOpen(null)}>{translate(m('modals.close'))}</Button></DialogActions>
      </Dialog>
    </>
  );
}

/** The View Products modal of a stock purchase. */
export function ViewProducts({ products }: { products: Array<{ name: string; product_qty: number }> }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>{translate(m('modals.view_products'))}</Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{translate(m('modals.products_title'))}</DialogTitle>
        <DialogContent>
          <Table size="small" aria-label={translate(m('modals.products_title'))}><TableBody>{products.map((p) => <TableRow key={p.name}><TableCell>{p.name}</TableCell><TableCell align="right">× {p.product_qty}</TableCell></TableRow>)}</TableBody></Table>
        </DialogContent>
        <DialogActions><Button onClick={() => setOpen(false)}>{translate(m('modals.close'))}</Button></DialogActions>
      </Dialog>
    </>
  );
}
