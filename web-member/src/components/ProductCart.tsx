import { Fragment, useState } from 'react';
import { Alert, Avatar, Box, Button, Card, CardContent, Chip, IconButton, Skeleton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import AddShoppingCart from '@mui/icons-material/AddShoppingCartOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import type { Product } from '@portal/services/contracts/catalogue';
import { type CartLine, cartTotals, useProducts } from '../api/stockists';
import { formatNaira } from '../lib/money';
import { storageUrl } from '../lib/storage';

/** Status badges (seed 001 §4): processing info, approved success, anything else danger. */
export function StatusChip({ status }: { status: string }) {
  const color = status === 'processing' ? 'info' : status === 'approved' ? 'success' : status === 'pending' ? 'warning' : 'error';
  return <Chip size="small" color={color} label={status} data-testid="status" />;
}

export const pickupLabel = (type: string) => ({ registration_pickup: 'Registration pick-up', upgrade_pickup: 'Upgrade pick-up', repurchase_pickup: 'Repurchase', 're-stock': 'Re-stock' } as Record<string, string>)[type] ?? type;

/**
 * The server's bound on one cart line (MAX_LINE_QUANTITY of services/src/contracts/purchases.ts,
 * kept equal by hand: importing it would bring zod into the page's script), so a cart the server
 * would refuse is not built.
 */
export const MAX_LINE_QUANTITY = 1_000;
const maxLine = MAX_LINE_QUANTITY.toLocaleString('en-US');

/** Why a quantity typed for a product cannot go into the cart, or null. */
function quantityProblem(raw: string): string | null {
  const n = Number(raw);
  // A number input reads '' for text it cannot parse ('1e', '--').
  if (raw.trim() === '' || !Number.isInteger(n) || n < 1) return 'Enter a whole number of at least 1.';
  if (n > MAX_LINE_QUANTITY) return `Enter at most ${maxLine}: that is the most of one product an order can hold.`;
  return null;
}

/** The products with a quantity each and an add button (seed 000 §2.11, 001 §2.3). */
function ProductTable({ onAdd }: { onAdd: (product: Product, qty: number) => string | null }) {
  const products = useProducts();
  const [qty, setQty] = useState<Record<number, string>>({});
  const [problems, setProblems] = useState<Record<number, string>>({});
  const add = (p: Product) => {
    const raw = qty[p.id] ?? '1';
    const problem = quantityProblem(raw) ?? onAdd(p, Number(raw));
    if (problem) {
      setProblems((all) => ({ ...all, [p.id]: problem }));
      return;
    }
    // Back to 1 once in the cart, so the box never shows a quantity already ordered.
    setQty(({ [p.id]: _added, ...rest }) => rest);
    setProblems(({ [p.id]: _solved, ...rest }) => rest);
  };
  if (products.isPending) return <Skeleton variant="rounded" height={200} />;
  if (!products.data?.length) return <Alert severity="info">There are no products</Alert>;
  return (
    <TableContainer>
      <Table size="small" aria-label="Products" sx={{ '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
        <TableHead>
          <TableRow>
            <TableCell>Product</TableCell>
            <TableCell align="right">Price</TableCell>
            <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>PV</TableCell>
            <TableCell sx={{ width: { xs: 72, sm: 110 } }}>Quantity</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {products.data.map((p) => (
            <Fragment key={p.id}>
            <TableRow data-testid="product-row" sx={problems[p.id] ? { '& td': { borderBottom: 0 } } : undefined}>
              <TableCell>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                  <Avatar variant="rounded" src={storageUrl(p.image) ?? undefined} alt="" sx={{ width: 36, height: 36, bgcolor: 'success.light', display: { xs: 'none', sm: 'flex' } }}>{p.name[0]}</Avatar>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>{p.name}</Typography>
                </Stack>
              </TableCell>
              <TableCell align="right">{formatNaira(p.worth)}</TableCell>
              <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{p.points}</TableCell>
              <TableCell>
                <TextField
                  size="small"
                  type="number"
                  value={qty[p.id] ?? '1'}
                  error={Boolean(problems[p.id])}
                  onChange={(e) => {
                    setQty((q) => ({ ...q, [p.id]: e.target.value }));
                    setProblems(({ [p.id]: _edited, ...rest }) => rest);
                  }}
                  onKeyDown={(e) => { if (e.key === 'Enter') add(p); }}
                  slotProps={{ htmlInput: { min: 1, max: MAX_LINE_QUANTITY, step: 1, 'aria-label': `Quantity of ${p.name}`, 'aria-describedby': problems[p.id] ? `quantity-problem-${p.id}` : undefined } }}
                />
              </TableCell>
              <TableCell>
                <IconButton color="primary" aria-label={`Add ${p.name}`} onClick={() => add(p)}>
                  <AddShoppingCart />
                </IconButton>
              </TableCell>
            </TableRow>
            {problems[p.id] && (
              <TableRow>
                <TableCell colSpan={5} sx={{ pt: 0 }}>
                  <Typography id={`quantity-problem-${p.id}`} role="alert" variant="caption" color="error" data-testid="quantity-problem">
                    {p.name}: {problems[p.id]}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
            </Fragment>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function useCart() {
  const [cart, setCart] = useState<CartLine[]>([]);
  /** Adds the line, or says why not (the table shows it beside the product). */
  const add = (product: Product, qty: number): string | null => {
    if (!Number.isInteger(qty) || qty < 1) return 'Enter a whole number of at least 1.';
    const inCart = cart.find((l) => l.id === product.id)?.qty ?? 0;
    if (inCart + qty > MAX_LINE_QUANTITY) {
      return `Your cart already holds ${inCart.toLocaleString('en-US')}: an order can hold at most ${maxLine} of one product.`;
    }
    setCart((c) => {
      const existing = c.find((l) => l.id === product.id);
      if (existing) return c.map((l) => (l.id === product.id ? { ...l, qty: l.qty + qty, price: product.worth * (l.qty + qty) } : l));
      return [...c, { id: product.id, qty, price: product.worth * qty, product }];
    });
    return null;
  };
  const remove = (id: number) => setCart((c) => c.filter((l) => l.id !== id));
  return { cart, add, remove, clear: () => setCart([]), totals: cartTotals(cart) };
}

/** Products on the left, the cart on the right (stacked on a phone). */
export function ProductsAndCart({ cartState, limit, children }: { cartState: ReturnType<typeof useCart>; limit?: number | null; children?: React.ReactNode }) {
  const { cart, add, remove, totals } = cartState;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, gap: 2 }}>
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>Products</Typography>
          <ProductTable onAdd={add} />
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>Cart</Typography>
          {cart.length === 0 ? (
            <Alert severity="info">There are no items in your cart</Alert>
          ) : (
            <Table size="small" aria-label="Cart">
              <TableBody>
                {cart.map((l) => (
                  <TableRow key={l.id} data-testid="cart-line">
                    <TableCell>{l.product.name}</TableCell>
                    <TableCell align="right">× {l.qty}</TableCell>
                    <TableCell align="right">{formatNaira(l.product.worth * l.qty)}</TableCell>
                    <TableCell padding="checkbox">
                      <IconButton size="small" aria-label={`Remove ${l.product.name}`} onClick={() => remove(l.id)}>
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <Stack spacing={0.5} sx={{ mt: 2 }}>
            <Typography data-testid="cart-total">Total: <b>{formatNaira(totals.total_price)}</b> · {totals.total_quantity} item(s) · {totals.total_points} PV</Typography>
            {limit != null && <AllowanceLeft limit={limit} total={totals.total_price} />}
          </Stack>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}

function AllowanceLeft({ limit, total }: { limit: number; total: number }) {
  const left = Math.round((limit - total) * 100) / 100;
  return (
    <Typography variant="body2" color={left < 0 ? 'error' : 'text.secondary'} data-testid="allowance-left">
      Pick-up amount: {formatNaira(limit)} · {left < 0 ? <>over by <b>{formatNaira(-left)}</b></> : <>left after this order: <b>{formatNaira(left)}</b></>}
    </Typography>
  );
}

export function SubmitRow({ busy, label, onClick, disabled }: { busy: boolean; label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Button variant="contained" sx={{ mt: 2 }} fullWidth disabled={busy || disabled} onClick={onClick}>
      {busy ? '...' : label}
    </Button>
  );
}
