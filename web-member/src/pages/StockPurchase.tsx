import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Box, Button, Card, CardContent, FormControl, InputLabel, MenuItem, Select, Stack, Typography } from '@mui/material';
import { useMember } from '../auth/member-context';
import { stockPickupStatusQuery, stockistApi, stockistQuery, useMyStockist, useStockistPackages } from '../api/stockists';
import { ProductsAndCart, SubmitRow, pickupLabel, useCart } from '../components/ProductCart';
import { CardPaymentDialog, UPGRADE_VERIFY_AFTER_MS, type CardPayment } from '../components/CardPaymentDialog';
import { usePartialPickupConfirm } from '../components/PartialPickupDialog';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';

/** Stock purchase (seed 001 §2.3): pick-up type, products, cart; re-stock against last month's sales. */
export function StockPurchasePage() {
  const user = useMember();
  const queryClient = useQueryClient();
  const mine = useMyStockist(user.uuid);
  const packages = useStockistPackages();
  const cartState = useCart();
  const [type, setType] = useState('');
  const [receipt, setReceipt] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [card, setCard] = useState<CardPayment | null>(null);
  const prev = useQuery(stockistQuery(['prev', user.uuid], (signal) => stockistApi.prevMonthSales(user.uuid, signal)));
  // Which stock pick-ups are taken, as the server decides when it refuses one: each is offered only
  // while it is still to take (the upgrade's allowance is read once there is one to take).
  const status = useQuery(stockPickupStatusQuery(user.uuid));
  const upgradePickup = useQuery({ queryKey: ['stockist', 'upgrade-pickup'], queryFn: async ({ signal }) => (await stockistApi.difference(0, true, signal)).data, retry: false, enabled: status.data?.upgrade_pickup_used === false });
  const types = [
    ...(status.data?.registration_pickup_used === false ? ['registration_pickup'] : []),
    ...(status.data?.upgrade_pickup_used === false && upgradePickup.data && !upgradePickup.data.pickup_used ? ['upgrade_pickup'] : []),
    're-stock',
  ];
  const { confirmPickup, dialog: partialPickupDialog } = usePartialPickupConfirm();
  const pkg = packages.data?.find((p) => p.id === mine.data?.package_id);
  const limit = type === 'registration_pickup' ? pkg?.pickup_amount ?? null : type === 'upgrade_pickup' ? upgradePickup.data?.pickup_allowance ?? null : type === 're-stock' ? prev.data?.available ?? null : null;
  const checked = () => {
    if (!type) { toast.warning('Order type not selected'); return false; }
    if (cartState.cart.length === 0) { toast.warning('There are no Items in your cart'); return false; }
    if (limit !== null && cartState.totals.total_price > limit) {
      toast.warning(type === 'registration_pickup' ? 'Total selected product price is higher than pickup amount' : 'There selected Items total price is greater than the pickup amount');
      return false;
    }
    return true;
  };
  const finished = async () => {
    cartState.clear();
    setType('');
    setReceipt(null);
    await queryClient.invalidateQueries({ queryKey: ['stockist'] });
  };
  // Only a re-stock is paid: the pick-ups are paid with the stockist package.
  const payByCard = async () => {
    if (!checked()) return;
    setBusy(true);
    try {
      const res = await stockistApi.payStockByCard(cartState.cart);
      setCard({ authorization_url: res.data.authorization_url, reference: res.data.reference });
    } catch { /* shown */ } finally { setBusy(false); }
  };
  const submit = () => {
    if (!checked()) return;
    if (type === 're-stock') void buy();
    else confirmPickup({ label: pickupLabel(type), total: cartState.totals.total_price, allowance: limit, go: () => void buy() });
  };
  const buy = async () => {
    setBusy(true);
    try {
      const res = await stockistApi.buyStock(user.uuid, cartState.cart, type, receipt);
      toast.success(res.message);
      await finished();
    } catch {
      // Shown by the client; a pick-up taken meanwhile (another tab) is no longer offered.
      void queryClient.invalidateQueries({ queryKey: stockPickupStatusQuery(user.uuid).queryKey });
    } finally { setBusy(false); }
  };
  return (
    <Stack spacing={2}>
      <Card>
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <FormControl size="small" sx={{ minWidth: 240 }}>
              <InputLabel id="stock-type">Pick-up type</InputLabel>
              <Select labelId="stock-type" label="Pick-up type" value={type} disabled={!status.data} onChange={(e) => setType(e.target.value)}>
                {types.map((t) => <MenuItem key={t} value={t}>{pickupLabel(t)}</MenuItem>)}
              </Select>
            </FormControl>
            {prev.data && <Typography variant="body2" color="text.secondary">Last month's sales ({prev.data.month}): {formatNaira(prev.data.total_sales)} · available to re-stock {formatNaira(prev.data.available)}</Typography>}
          </Stack>
        </CardContent>
      </Card>
      <ProductsAndCart cartState={cartState} limit={limit}>
        <Box sx={{ mt: 2 }}>
          <Typography variant="body2" color="text.secondary" gutterBottom>Payment receipt (for a re-stock paid by bank transfer), at most 500 kB:</Typography>
          <input type="file" accept="image/png,image/jpeg,image/webp" name="payment_receipt" aria-label="Payment receipt" onChange={(e) => setReceipt(e.target.files?.[0] ?? null)} />
        </Box>
        <SubmitRow busy={busy} disabled={type !== '' && limit === null} label={type === 're-stock' ? 'Submit with receipt' : 'Submit'} onClick={submit} />
        {type === 're-stock' ? (
          <Button fullWidth variant="outlined" sx={{ mt: 1 }} disabled={busy} onClick={() => void payByCard()}>Pay by card</Button>
        ) : null}
      </ProductsAndCart>
      {partialPickupDialog}
      <CardPaymentDialog payment={card} title="Make Payment" verifyAfterMs={UPGRADE_VERIFY_AFTER_MS} onClose={() => setCard(null)} onVerified={async () => { setCard(null); await finished(); }} />
    </Stack>
  );
}
