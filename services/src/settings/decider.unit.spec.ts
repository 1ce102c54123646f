import { describe, expect, it } from 'vitest';
import { RuleViolation } from '../core/errors';
import { demoSettings } from '../seed/demo-company';
import { toInternalChanges } from './commands';
import { type Generations, type SettingsState, decideBonusTable, decideSettings, noGenerations } from './decider';

const change = (state: SettingsState, changes: SettingsState) => decideSettings({ type: 'ChangeSettings', changes }, state);

describe('settings decider', () => {
  it('records the changed fields and their previous values', () => {
    expect(change(demoSettings, { unit_point_value_kobo: 150_000, loyalty_bonus_percentage: demoSettings.loyalty_bonus_percentage })).toEqual([
      { type: 'SettingsChanged', data: { changes: { unit_point_value_kobo: 150_000 }, previous: { unit_point_value_kobo: demoSettings.unit_point_value_kobo } } },
    ]);
  });

  it('records nothing when nothing changes', () => {
    expect(change(demoSettings, { company_phone: demoSettings.company_phone })).toEqual([]);
  });

  it('records the first settings with no previous values', () => {
    expect(change({}, { charge: 2 })).toEqual([{ type: 'SettingsChanged', data: { changes: { charge: 2 }, previous: {} } }]);
  });

  it('keeps a weekly payout day within Sunday (1) to Saturday (7), a monthly one within 1 to 30', () => {
    expect(() => change(demoSettings, { withdrawal_type: 'weekly', withdrawal_period: 8 })).toThrow(/weekly payout/);
    expect(change(demoSettings, { withdrawal_type: 'monthly', withdrawal_period: 28 })).toHaveLength(1);
    expect(() => change({ ...demoSettings, withdrawal_type: 'monthly', withdrawal_period: 28 }, { withdrawal_period: 31 })).toThrow(/monthly payout/);
    expect(() => change({ ...demoSettings, withdrawal_type: null, withdrawal_period: null }, { withdrawal_period: 3 })).toThrow(/weekly or monthly payout before/);
  });

  it('refuses a minimum withdrawal above the maximum, unless the maximum is 0 (no maximum)', () => {
    expect(() => change(demoSettings, { minimum_withdrawal_kobo: demoSettings.maximum_withdrawal_kobo + 1 })).toThrow(RuleViolation);
    expect(change(demoSettings, { maximum_withdrawal_kobo: 0, minimum_withdrawal_kobo: 1_000_000_000 })).toHaveLength(1);
  });

  it('refuses global profit percentages adding up to more than 100', () => {
    expect(() => change(demoSettings, { global_profit_first_percentage: 41 })).toThrow(/cannot add up to more than 100/);
  });

  it('refuses a percentage charge over 100; a flat charge is an amount, not a percent', () => {
    expect(() => change(demoSettings, { charge: 101 })).toThrow(/more than 100/);
    expect(change({ ...demoSettings, withdrawal_charge_type: 'flat' }, { charge_kobo: 5_000_000 })).toHaveLength(1);
  });
});

describe('settings units at the API', () => {
  it('turns naira into kobo and leaves other fields as sent', () => {
    expect(toInternalChanges({ unit_point_value: 1500, minimum_withdrawal: 2500.5, loyalty_bonus_percentage: 4 }, demoSettings)).toMatchObject({
      unit_point_value_kobo: 150_000,
      minimum_withdrawal_kobo: 250_050,
      loyalty_bonus_percentage: 4,
    });
  });

  it('reads charge as a percent for the percentage type and as naira for the flat type', () => {
    expect(toInternalChanges({ charge: 2.5 }, demoSettings)).toMatchObject({ charge: 2.5 });
    expect(toInternalChanges({ charge: 2.5 }, demoSettings).charge_kobo).toBeUndefined();
    expect(toInternalChanges({ withdrawal_charge_type: 'flat', charge: 150 }, demoSettings)).toMatchObject({ withdrawal_charge_type: 'flat', charge_kobo: 15_000 });
    expect(toInternalChanges({ charge: 150 }, { ...demoSettings, withdrawal_charge_type: 'flat' })).toMatchObject({ charge_kobo: 15_000 });
  });

  it('clears the payout day with the payout type', () => {
    expect(toInternalChanges({ withdrawal_type: null }, demoSettings)).toMatchObject({ withdrawal_type: null, withdrawal_period: null });
  });
});

describe('bonus generation table decider', () => {
  const set = (state: Generations, percentages: Partial<Generations>) => decideBonusTable({ type: 'SetGenerations', kind: 'referral', package_id: 2, percentages }, state);

  it('records the generations that change with their previous percentages (0 for a row never set)', () => {
    expect(set(noGenerations(), { generation_1_percentage: 10, generation_2_percentage: 0 })).toEqual([
      { type: 'BonusGenerationsChanged', data: { kind: 'referral', package_id: 2, changes: { generation_1_percentage: 10 }, previous: { generation_1_percentage: 0 } } },
    ]);
  });

  it('records nothing when no generation changes', () => {
    expect(set({ ...noGenerations(), generation_1_percentage: 10 }, { generation_1_percentage: 10 })).toEqual([]);
  });

  it('refuses generations adding up to more than 100 percent, and allows exactly 100', () => {
    const ninety = { ...noGenerations(), generation_1_percentage: 90 };
    expect(() => set(ninety, { generation_2_percentage: 10.5 })).toThrow(/cannot be more than 100 percent/);
    expect(set({ ...ninety, generation_3_percentage: 9.9 }, { generation_2_percentage: 0.1 })).toHaveLength(1);
  });
});
