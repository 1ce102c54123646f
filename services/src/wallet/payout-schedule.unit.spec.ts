import { describe, expect, it } from 'vitest';
import { companyDate, isPayoutDay } from './payout-schedule';

describe('the payout schedule, on Nigerian days (UTC+1)', () => {
  it('weekly period 6 (Friday): pays on Friday 2026-11-27, not on Thursday or Saturday', () => {
    const friday = { withdrawal_type: 'weekly' as const, withdrawal_period: 6 };
    expect(isPayoutDay(friday, new Date('2026-11-27T10:00:00Z'))).toBe(true);
    expect(isPayoutDay(friday, new Date('2026-11-26T10:00:00Z'))).toBe(false);
    expect(isPayoutDay(friday, new Date('2026-11-28T10:00:00Z'))).toBe(false);
  });

  it('weekly 1 is Sunday and 7 is Saturday', () => {
    expect(isPayoutDay({ withdrawal_type: 'weekly', withdrawal_period: 1 }, new Date('2026-11-29T12:00:00Z'))).toBe(true);
    expect(isPayoutDay({ withdrawal_type: 'weekly', withdrawal_period: 7 }, new Date('2026-11-28T12:00:00Z'))).toBe(true);
  });

  it('counts days in Lagos: 23:30 UTC on Thursday is already Friday 00:30 there', () => {
    expect(isPayoutDay({ withdrawal_type: 'weekly', withdrawal_period: 6 }, new Date('2026-11-26T23:30:00Z'))).toBe(true);
    expect(companyDate(new Date('2026-11-26T23:30:00Z'))).toBe('2026-11-27');
  });

  it('monthly day 15 pays on the 15th; day 30 pays on 28 February, the month’s last day', () => {
    expect(isPayoutDay({ withdrawal_type: 'monthly', withdrawal_period: 15 }, new Date('2026-12-15T09:00:00Z'))).toBe(true);
    expect(isPayoutDay({ withdrawal_type: 'monthly', withdrawal_period: 15 }, new Date('2026-12-16T09:00:00Z'))).toBe(false);
    expect(isPayoutDay({ withdrawal_type: 'monthly', withdrawal_period: 30 }, new Date('2027-02-28T09:00:00Z'))).toBe(true);
    expect(isPayoutDay({ withdrawal_type: 'monthly', withdrawal_period: 30 }, new Date('2027-03-28T09:00:00Z'))).toBe(false);
  });

  it('without a schedule every day is a payout day', () => {
    expect(isPayoutDay({ withdrawal_type: null, withdrawal_period: null }, new Date('2026-11-26T10:00:00Z'))).toBe(true);
  });
});
