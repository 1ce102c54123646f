import type { Settings } from '@portal/services/contracts/settings';
import { formatNaira } from './money';

/** Seed 000 §8: a non-numeric amount. */
export const WITHDRAWAL_AMOUNT_INVALID = 'withdrawal amount is invalid';

type Limits = Pick<Settings, 'minimum_withdrawal' | 'maximum_withdrawal'>;
type Charges = Pick<Settings, 'withdrawal_charge_type' | 'charge' | 'withdrawal_charge_cap'>;

/** A typed amount as a number of naira, or null when it is not one. */
export function parseNaira(input: string): number | null {
  const text = input.replace(/[,\s₦]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  return Number(text);
}

/**
 * What is wrong with a withdrawal amount (seed 000 §5): required number; at least
 * minimum_withdrawal when that is above 0, else 1; at most maximum_withdrawal (0 = no maximum).
 * `allowZero`: the standing amount may be 0, which stops it. Same wording as the server.
 */
export function withdrawalAmountProblem(input: string, limits: Limits | undefined, options: { allowZero?: boolean } = {}): string | null {
  const amount = parseNaira(input);
  if (amount === null) return WITHDRAWAL_AMOUNT_INVALID;
  if (amount === 0 && options.allowZero) return null;
  const minimum = limits && limits.minimum_withdrawal > 0 ? limits.minimum_withdrawal : 1;
  if (amount < minimum) return amount <= 0 ? WITHDRAWAL_AMOUNT_INVALID : `The minimum withdrawal is ${formatNaira(minimum)}.`;
  if (limits && limits.maximum_withdrawal > 0 && amount > limits.maximum_withdrawal) return `The maximum withdrawal is ${formatNaira(limits.maximum_withdrawal)}.`;
  return null;
}

/**
 * The charge on a withdrawal (BUSINESS-RULES.md §4), in naira: percentage type = min(pct, cap)
 * (no cap when 0), flat type = the charge. Rounded down to the kobo like the server.
 */
export function withdrawalFee(amount: number, charges: Charges): number {
  if (charges.withdrawal_charge_type === 'flat') return charges.charge;
  // Percentages have at most 4 decimals: scaled to integers so the floor is exact (core/money percentOf).
  const kobo = Math.floor((Math.round(amount * 100) * Math.round(charges.charge * 10_000)) / 1_000_000);
  const fee = kobo / 100;
  return charges.withdrawal_charge_cap > 0 ? Math.min(fee, charges.withdrawal_charge_cap) : fee;
}

/** "1.5% of the amount, at most ₦2,000.00" / "₦100.00 per withdrawal". */
export function describeCharge(charges: Charges): string {
  if (charges.withdrawal_charge_type === 'flat') return `${formatNaira(charges.charge)} per withdrawal`;
  const cap = charges.withdrawal_charge_cap > 0 ? `, at most ${formatNaira(charges.withdrawal_charge_cap)}` : '';
  return `${charges.charge}% of the amount${cap}`;
}
