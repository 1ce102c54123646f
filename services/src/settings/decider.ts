import { type BonusTableKind, GENERATIONS, type GenerationField, generationField } from '../contracts/settings';
import { changedFields } from '../core/changes';
import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import type { BonusTableEvent, SettingsEvent } from './events';
import type { SettingsValues } from './values';

// ---- the settings record ---------------------------------------------------------------------

export type SettingsState = Partial<SettingsValues>;
export type SettingsCommand = { type: 'ChangeSettings'; changes: Partial<SettingsValues> };

export const settingsRuleMessages = {
  weeklyPeriod: 'For a weekly payout, the payout day must be from 1 (Sunday) to 7 (Saturday).',
  monthlyPeriod: 'For a monthly payout, the payout day must be from 1 to 30.',
  periodWithoutType: 'Choose a weekly or monthly payout before choosing its day.',
  minimumAboveMaximum: 'The minimum withdrawal cannot be more than the maximum withdrawal.',
  globalProfitOver100: 'The first and second global profit percentages cannot add up to more than 100.',
  chargeOver100: 'A percentage charge cannot be more than 100.',
} as const;

/** Rules across fields, checked on the record as it would be after the change. */
export function checkSettings(values: SettingsState): void {
  const period = values.withdrawal_period ?? null;
  if (values.withdrawal_type === 'weekly' && (period === null || period < 1 || period > 7)) throw new RuleViolation(settingsRuleMessages.weeklyPeriod, 'withdrawal_period');
  if (values.withdrawal_type === 'monthly' && (period === null || period < 1 || period > 30)) throw new RuleViolation(settingsRuleMessages.monthlyPeriod, 'withdrawal_period');
  if (values.withdrawal_type === null && period !== null) throw new RuleViolation(settingsRuleMessages.periodWithoutType, 'withdrawal_period');
  const { minimum_withdrawal_kobo: minimum, maximum_withdrawal_kobo: maximum } = values;
  // A maximum of 0 means no maximum (BUSINESS-RULES.md §4).
  if (minimum !== undefined && maximum !== undefined && maximum > 0 && minimum > maximum) throw new RuleViolation(settingsRuleMessages.minimumAboveMaximum, 'minimum_withdrawal');
  if ((values.global_profit_first_percentage ?? 0) + (values.global_profit_second_percentage ?? 0) > 100) {
    throw new RuleViolation(settingsRuleMessages.globalProfitOver100, 'global_profit_second_percentage');
  }
  if (values.withdrawal_charge_type === 'percentage' && (values.charge ?? 0) > 100) throw new RuleViolation(settingsRuleMessages.chargeOver100, 'charge');
}

export function evolveSettings(state: SettingsState, event: SettingsEvent): SettingsState {
  switch (event.type) {
    case 'SettingsChanged':
      return { ...state, ...event.data.changes };
    default: {
      const unknownEvent: never = event.type;
      return unknownEvent;
    }
  }
}

/** Records only what changes, with the previous values; a change that changes nothing records nothing. */
export function decideSettings(command: SettingsCommand, state: SettingsState): SettingsEvent[] {
  switch (command.type) {
    case 'ChangeSettings': {
      const { changes, previous, changed } = changedFields(state, command.changes);
      if (!changed) return [];
      checkSettings({ ...state, ...changes });
      return [{ type: 'SettingsChanged', data: { changes, previous } }];
    }
    default: {
      const unknownCommand: never = command.type;
      return unknownCommand;
    }
  }
}

export const settingsDecider: Decider<SettingsState, SettingsCommand, SettingsEvent> = {
  initialState: () => ({}),
  evolve: evolveSettings,
  decide: decideSettings,
};

// ---- the bonus generation tables --------------------------------------------------------------

export type Generations = Record<GenerationField, number>;
export type BonusTableCommand = { type: 'SetGenerations'; kind: BonusTableKind; package_id: number; percentages: Partial<Generations> };

export const bonusTableMessages = { over100: 'The ten generations together cannot be more than 100 percent.' } as const;

export const noGenerations = (): Generations => Object.fromEntries(GENERATIONS.map((g) => [generationField(g), 0])) as Generations;

export function evolveBonusTable(state: Generations, event: BonusTableEvent): Generations {
  switch (event.type) {
    case 'BonusGenerationsChanged':
      return { ...state, ...event.data.changes };
    default: {
      const unknownEvent: never = event.type;
      return unknownEvent;
    }
  }
}

/**
 * A row of a generation table: percentages of the paying amount for generations 1..10. Together
 * they cannot pass 100 % (the company would pay out more than it received).
 */
export function decideBonusTable(command: BonusTableCommand, state: Generations): BonusTableEvent[] {
  switch (command.type) {
    case 'SetGenerations': {
      const { changes, previous, changed } = changedFields(state, command.percentages);
      if (!changed) return [];
      const total = Object.values({ ...state, ...changes }).reduce((sum, percent) => sum + percent, 0);
      // Compared in ten-thousandths of a percent, so 0.1 + 0.2 style sums do not trip the rule.
      if (Math.round(total * 10_000) > 100 * 10_000) throw new RuleViolation(bonusTableMessages.over100, 'generation_1_percentage');
      return [{ type: 'BonusGenerationsChanged', data: { kind: command.kind, package_id: command.package_id, changes, previous } }];
    }
    default: {
      const unknownCommand: never = command.type;
      return unknownCommand;
    }
  }
}

export const bonusTableDecider: Decider<Generations, BonusTableCommand, BonusTableEvent> = {
  initialState: noGenerations,
  evolve: evolveBonusTable,
  decide: decideBonusTable,
};
