/**
 * Money is integer kobo inside the system; naira appear only at the API's edge (API.md §1).
 */
export type Kobo = number;

export function nairaToKobo(naira: number): Kobo {
  const kobo = Math.round(naira * 100);
  if (!Number.isSafeInteger(kobo)) throw new RangeError(`${naira} naira is not a representable amount`);
  return kobo;
}

export function koboToNaira(kobo: Kobo): number {
  return kobo / 100;
}

/** pct(a, p) = floor(a × p / 100), the rounding rule of BUSINESS-RULES.md: the company keeps the remainder. */
export function percentOf(amount: Kobo, percent: number): Kobo {
  // Percentages have at most 4 decimals; scale to integers so the floor is exact.
  const scaledPercent = Math.round(percent * 10_000);
  return Number((BigInt(amount) * BigInt(scaledPercent)) / 1_000_000n);
}

/** ₦ with US grouping, as the screens show money (seed 000 §9): 3,500,000 kobo → "₦35,000". */
export function formatNaira(kobo: Kobo): string {
  return `₦${koboToNaira(kobo).toLocaleString('en-US')}`;
}
