import type { DomainEvent } from '../core/event-store';

/**
 * The matching (binary pairing) bonus runs in cycles (BUSINESS-RULES.md §3 "Matching"). A cycle is
 * named by its last day, a date in Lagos; closing it is one event on its own stream, appended at
 * expected version 0, so a cycle closes once however often the scheduler or an operator asks.
 * The terms of the plan are copied from the settings when the cycle closes: the `matching`
 * policy pays the cycle with them, so a settings change afterwards does not change a closed cycle.
 */
export type MatchingCycleClosed = DomainEvent<
  'MatchingCycleClosed',
  {
    /** The cycle's last day, YYYY-MM-DD (Lagos). */
    cycle_end: string;
    /** setting.matching_bonus_frequency when the cycle closed. */
    frequency_days: number;
    /** PV per pair: setting.matching_bonus_total_pv. */
    total_pv: number;
    /** setting.matching_bonus_percent. */
    percent: number;
    /** Naira value of 1 PV, in kobo: setting.unit_point_value. */
    unit_point_value_kobo: number;
  }
>;

export type MatchingEvent = MatchingCycleClosed;

export const matchingCycleStream = (cycleEnd: string) => `matching-cycle-${cycleEnd}`;
