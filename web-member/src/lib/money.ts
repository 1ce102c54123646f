/** Naira with US digit grouping, e.g. ₦25,000.00 (seed 000 §9). */
const naira = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'NGN',
  currencyDisplay: 'narrowSymbol',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatNaira(amount: number | string | null | undefined): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  return naira.format(value == null || !Number.isFinite(value) ? 0 : value);
}
