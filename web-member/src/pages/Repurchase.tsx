import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert, Avatar, Box, Button, Card, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, FormControlLabel, InputLabel, MenuItem, Radio, RadioGroup, Select,
  Link, Skeleton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { useMember } from '../auth/member-context';
import { usePackage } from '../api/queries';
import { walletDebited } from '../api/earnings-queries';
import { pickupStatusQuery, stockistApi, usePaged } from '../api/stockists';
import { CardPaymentDialog, UPGRADE_VERIFY_AFTER_MS, type CardPayment } from '../components/CardPaymentDialog';
import { PageButtons } from '../components/PageButtons';
import { PurchaseRecords } from '../components/PurchaseRecords';
import { usePartialPickupConfirm } from '../components/PartialPickupDialog';
import { PasswordField } from '../components/PasswordField';
import { ProductsAndCart, SubmitRow, pickupLabel, useCart } from '../components/ProductCart';
import { ReceiptUpload } from '../components/ReceiptUpload';
import { formatNaira } from '../lib/money';
import { storageUrl } from '../lib/storage';
import { toast } from '../lib/notify';

const wideOnly = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** Approved stockists to collect from, with a working search and pagination (seed 000 §2.11). */
function StockistList() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const list = usePaged(['list', page, applied], (signal) => stockistApi.stockists(page, applied, signal));
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" gutterBottom>Where to collect</Typography>
        <Stack component="form" direction="row" spacing={1} sx={{ mb: 2 }} onSubmit={(e) => { e.preventDefault(); setPage(1); setApplied(search); }}>
          <TextField size="small" label="Search stockists" value={search} onChange={(e) => setSearch(e.target.value)} fullWidth />
          <Button type="submit" variant="outlined">Search</Button>
        </Stack>
        {list.isPending ? <Skeleton variant="rounded" height={120} /> : !list.data?.data.length ? <Alert severity="info">There are no stockists</Alert> : (
          <TableContainer>
            <Table size="small" aria-label="Stockists">
              <TableHead><TableRow><TableCell>Store</TableCell><TableCell sx={wideOnly}>Address</TableCell><TableCell sx={wideOnly}>State</TableCell><TableCell sx={wideOnly}>Phone</TableCell></TableRow></TableHead>
              <TableBody>
                {list.data.data.map((s) => (
                  <TableRow key={s.id} data-testid="stockist-row">
                    <TableCell>
                      {s.store_name}
                      {/* On a phone the four columns did not fit and cut the phone number: the details go under the name. */}
                      <Typography variant="body2" color="text.secondary" component="div" sx={{ display: { sm: 'none' } }} data-testid="stockist-row-details">
                        {s.store_address}, <Box component="span" sx={{ textTransform: 'capitalize' }}>{s.store_state}</Box>
                        <br />
                        <Link href={`tel:${s.store_phone}`} sx={{ whiteSpace: 'nowrap' }}>{s.store_phone}</Link>
                      </Typography>
                    </TableCell>
                    <TableCell sx={wideOnly}>{s.store_address}</TableCell>
                    <TableCell sx={{ ...wideOnly, textTransform: 'capitalize' }}>{s.store_state}</TableCell>
                    <TableCell sx={{ ...wideOnly, whiteSpace: 'nowrap' }}>{s.store_phone}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <PageButtons page={page} lastPage={list.data?.last_page ?? 1} onChange={setPage} label="Stockist pages" />
      </CardContent>
    </Card>
  );
}

/** The order code modal: shown only after the member re-enters their password (seed 000 §4). */
function OrderCodeDialog({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => { setPassword(''); setCode(null); onClose(); };
  const reveal = async () => {
    if (!orderId) return;
    setBusy(true);
    try {
      setCode((await stockistApi.orderCode(orderId, password)).data.order_code);
    } catch { /* shown by the client */ } finally { setBusy(false); }
  };
  const copy = async () => {
    if (!code) { toast.warning('Order code is empty or not loaded'); return; }
    try { await navigator.clipboard.writeText(code); toast.success('Order code copied to clipboard!'); } catch { toast.error('Failed to copy order code. Try manually.'); }
  };
  return (
    <Dialog open={orderId !== null} onClose={close} fullWidth maxWidth="xs">
      <DialogTitle>Order code</DialogTitle>
      <DialogContent>
        {code ? (
          <Stack spacing={2} sx={{ alignItems: 'center', py: 1 }}>
            <Typography variant="h4" sx={{ fontFamily: 'monospace', letterSpacing: 4 }} data-testid="order-code">{code}</Typography>
            <Typography variant="body2" color="text.secondary">Show this code at any approved stockist to collect your order.</Typography>
            <Button startIcon={<ContentCopy />} onClick={copy}>Copy</Button>
          </Stack>
        ) : (
          <Box component="form" id="order-code-form" onSubmit={(e) => { e.preventDefault(); void reveal(); }} sx={{ pt: 1 }}>
            <PasswordField label="Your password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus fullWidth required />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Close</Button>
        {!code && <Button type="submit" form="order-code-form" variant="contained" disabled={busy || !password}>{busy ? '...' : 'Show code'}</Button>}
      </DialogActions>
    </Dialog>
  );
}

function OrderDetailsDialog({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const details = useQuery({ queryKey: ['stockist', 'order-details', orderId], queryFn: async ({ signal }) => (await stockistApi.orderDetails(orderId!, signal)).data.products, enabled: orderId !== null });
  return (
    <Dialog open={orderId !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Order details</DialogTitle>
      <DialogContent>
        <Table size="small" aria-label="Order products">
          <TableHead><TableRow><TableCell>Product</TableCell><TableCell align="right">Quantity</TableCell><TableCell align="right">Unit price</TableCell></TableRow></TableHead>
          <TableBody>
            {(details.data ?? []).map((p) => (
              <TableRow key={p.name} data-testid="order-product">
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Avatar variant="rounded" src={storageUrl(p.image) ?? undefined} alt={p.name} sx={{ width: 36, height: 36 }}>{p.name.charAt(0)}</Avatar>
                    <span>{p.name}</span>
                  </Stack>
                </TableCell>
                <TableCell align="right">{p.product_qty ?? 1}</TableCell>
                <TableCell align="right">{formatNaira(p.price)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions><Button onClick={onClose}>Close</Button></DialogActions>
    </Dialog>
  );
}

/** Repurchase / product pick-up (seed 000 §2.11, §4). */
export default function RepurchasePage() {
  const user = useMember();
  const queryClient = useQueryClient();
  const cartState = useCart();
  const [orderType, setOrderType] = useState('');
  const [method, setMethod] = useState<'wallet' | 'payment_gateway' | 'pop'>('wallet');
  const [busy, setBusy] = useState(false);
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const [detailsFor, setDetailsFor] = useState<string | null>(null);
  const [card, setCard] = useState<CardPayment | null>(null);
  const regPackage = usePackage(user.reg_package_id ?? user.package_id);
  // Which pick-ups are taken, as the server decides when it refuses one (not read from a page of the
  // history, which misjudged a long one). Until the registration pick-up is made only that type is
  // offered (seed 000 §4); an upgrade pick-up only while the latest upgrade's one is still to take.
  const status = useQuery(pickupStatusQuery(user.uuid));
  const hasRegistrationPickup = status.data?.registration_pickup_used === true;
  const upgrade = useQuery({
    queryKey: ['stockist', 'member-upgrade-pickup', user.uuid],
    queryFn: async ({ signal }) => (await stockistApi.memberUpgradePickup(user.uuid, signal)).data ?? null,
    enabled: status.data?.upgrade_pickup_used === false,
  });
  const upgradeOpen = status.data?.upgrade_pickup_used === false && upgrade.data != null;
  const types = !status.data ? [] : hasRegistrationPickup ? [...(upgradeOpen ? ['upgrade_pickup'] : []), 'repurchase_pickup'] : ['registration_pickup'];
  const limit = orderType === 'registration_pickup' ? regPackage.data?.pickup_amount ?? null : orderType === 'upgrade_pickup' ? upgrade.data?.package_difference ?? null : null;
  const { confirmPickup, dialog: partialPickupDialog } = usePartialPickupConfirm();

  const done = async () => {
    cartState.clear();
    setOrderType('');
    await queryClient.invalidateQueries({ queryKey: ['stockist'] });
  };

  const submit = async (receipt?: File) => {
    const { cart, totals } = cartState;
    if (!orderType) { toast.warning('Order type not selected'); return false; }
    if (cart.length === 0) { toast.warning(orderType === 'repurchase_pickup' ? 'There are no Items in your cart' : 'There are no selected products'); return false; }
    if (limit !== null && totals.total_price > limit) { toast.warning('Total selected product price is higher than pickup amount'); return false; }
    if (orderType !== 'repurchase_pickup') {
      confirmPickup({ label: pickupLabel(orderType), total: totals.total_price, allowance: limit, go: () => void placePickup() });
      return false;
    }
    setBusy(true);
    try {
      if (method === 'wallet') {
        const res = await stockistApi.payFromWallet(cart);
        toast.success(res.message);
        await walletDebited(queryClient, user.uuid, { field: 'total_spent', amount: totals.total_price });
      } else if (method === 'pop') {
        if (!receipt) return false;
        const res = await stockistApi.payByReceipt(cart, receipt);
        toast.success(res.message);
      } else {
        const res = await stockistApi.payByCard(cart);
        setCard({ authorization_url: res.data.authorization_url, reference: res.data.reference });
        return true;
      }
      await done();
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };

  const placePickup = async () => {
    setBusy(true);
    try {
      const res = await stockistApi.placeAllowanceOrder(user.uuid, cartState.cart, orderType);
      toast.success(res.message);
      await done();
    } catch {
      // Shown by the client; a pick-up taken meanwhile (another tab) is no longer offered.
      void queryClient.invalidateQueries({ queryKey: pickupStatusQuery(user.uuid).queryKey });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Card>
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <FormControl size="small" sx={{ minWidth: 240 }}>
              <InputLabel id="order-type">Order type</InputLabel>
              <Select labelId="order-type" label="Order type" value={orderType} disabled={!status.data} onChange={(e) => setOrderType(e.target.value)} data-testid="order-type">
                {types.map((t) => <MenuItem key={t} value={t}>{pickupLabel(t)}</MenuItem>)}
              </Select>
            </FormControl>
            <Typography variant="body2" color="text.secondary">
              {orderType === 'repurchase_pickup' ? 'A repurchase is paid now and collected at a stockist with its order code.' : 'Pick-ups come out of your package\'s pick-up allowance and are collected at a stockist.'}
            </Typography>
          </Stack>
        </CardContent>
      </Card>
      <ProductsAndCart cartState={cartState} limit={limit}>
        {orderType === 'repurchase_pickup' && (
          <FormControl sx={{ mt: 2 }}>
            <Typography variant="subtitle2">Pay with</Typography>
            <RadioGroup row value={method} onChange={(e) => setMethod(e.target.value as typeof method)}>
              <FormControlLabel value="wallet" control={<Radio />} label="Wallet" />
              <FormControlLabel value="payment_gateway" control={<Radio />} label="Card" />
              <FormControlLabel value="pop" control={<Radio />} label="Bank transfer" />
            </RadioGroup>
          </FormControl>
        )}
        {orderType === 'repurchase_pickup' && method === 'pop' ? (
          <Box sx={{ mt: 1 }}><ReceiptUpload onUpload={(file) => submit(file)} buttonLabel="Upload receipt and order" hint={`Transfer ${formatNaira(cartState.totals.total_price)} to a company account, then upload the receipt.`} /></Box>
        ) : (
          <SubmitRow busy={busy} disabled={orderType !== '' && orderType !== 'repurchase_pickup' && limit === null} label={orderType === 'repurchase_pickup' ? (method === 'wallet' ? 'Pay from wallet' : 'Pay by card') : 'Submit order'} onClick={() => void submit()} />
        )}
      </ProductsAndCart>
      <StockistList />
      <PurchaseRecords onCode={setCodeFor} onDetails={setDetailsFor} />
      <OrderCodeDialog orderId={codeFor} onClose={() => setCodeFor(null)} />
      <OrderDetailsDialog orderId={detailsFor} onClose={() => setDetailsFor(null)} />
      {partialPickupDialog}
      <CardPaymentDialog payment={card} title="Make Payment" verifyAfterMs={UPGRADE_VERIFY_AFTER_MS} onClose={() => setCard(null)} onVerified={async () => { setCard(null); await done(); }} />
    </Stack>
  );
}
