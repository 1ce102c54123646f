import { sql } from 'kysely';
import { type CommandContext, runInTransaction } from '../core/command';
import type { Db, Executor } from '../core/db';
import { RuleViolation } from '../core/errors';
import { type Actor, type EventMetadata, appendToStream, streamVersion } from '../core/event-store';
import { getSettings } from '../settings/projections';
import { companyDate } from '../wallet/payout-schedule';
import { type MatchingCycleClosed, matchingCycleStream } from './events';
import { dueCycleEnds, isCalendarDate } from './policies';
import { projectMatching } from './projections';

const scheduleActor: Actor = { type: 'system', id: 'matching-schedule' };

/** A command context from the api's commands, or from a bare database (scripts, benchmarks: nothing to wake). */
const contextOf = (target: CommandContext | Db): CommandContext => ('onCommitted' in target ? target : { db: target, onCommitted: () => {} });

/**
 * Closes the matching cycle ending on `cycleEnd` (YYYY-MM-DD, Lagos), once: MatchingCycleClosed on
 * `matching-cycle-<date>` at expected version 0, with the plan's terms copied from the settings.
 * The `matching` policy then pays it. A cycle already closed answers `closed: false` (the
 * scheduler asks again harmlessly); a date that is not over yet in Lagos is refused.
 * Any ended date is accepted (the scheduler only asks for dates on the cycle grid, policies.ts).
 */
export async function closeMatchingCycle(target: CommandContext | Db, cycleEnd: string, now: Date, actor: Actor = scheduleActor): Promise<{ cycleEnd: string; closed: boolean }> {
  if (!isCalendarDate(cycleEnd)) throw new RuleViolation('The cycle end must be a date written YYYY-MM-DD.', 'cycle_end');
  if (cycleEnd >= companyDate(now)) throw new RuleViolation(`The matching cycle ending ${cycleEnd} has not ended yet.`, 'cycle_end');
  const stream = matchingCycleStream(cycleEnd);
  return runInTransaction(contextOf(target), async (trx) => {
    // Read first: a second attempt records nothing (a racing first attempt makes the append below
    // conflict, and the retry from a fresh read ends here).
    if ((await streamVersion(trx, stream)).version > 0) return { cycleEnd, closed: false };
    const settings = await getSettings(trx);
    const event: MatchingCycleClosed = {
      type: 'MatchingCycleClosed',
      data: {
        cycle_end: cycleEnd,
        frequency_days: settings.matching_bonus_frequency,
        total_pv: settings.matching_bonus_total_pv,
        percent: settings.matching_bonus_percent,
        unit_point_value_kobo: settings.unit_point_value_kobo,
      },
    };
    const metadata: EventMetadata = { actor, now: now.toISOString(), causation_id: null, correlation_id: stream };
    const recorded = await appendToStream(trx, stream, [event], { expectedVersion: 0, metadata });
    await projectMatching(trx, recorded);
    return { cycleEnd, closed: true };
  });
}

/** The latest closed cycle's end date, or null before the first. */
export async function lastClosedCycle(db: Executor): Promise<string | null> {
  const { rows } = await sql<{ cycle_end: string | null }>`select max(cycle_end)::text as cycle_end from matching_cycles`.execute(db);
  return rows[0]?.cycle_end ?? null;
}

/**
 * The scheduled job (worker/schedules.ts): closes every cycle that ended since the last closed
 * one, oldest first, on the grid of the current setting.matching_bonus_frequency (policies.ts
 * dueCycleEnds). Safe to run often and in several workers: each cycle closes once. An admin's
 * "Close due cycle" runs the same with themselves as the actor.
 */
export async function runMatchingSchedule(target: CommandContext | Db, now: Date, actor: Actor = scheduleActor): Promise<{ closed: string[] }> {
  const ctx = contextOf(target);
  const settings = await getSettings(ctx.db);
  const due = dueCycleEnds({ today: companyDate(now), frequencyDays: settings.matching_bonus_frequency, lastClosed: await lastClosedCycle(ctx.db) });
  const closed: string[] = [];
  for (const cycleEnd of due) {
    if ((await closeMatchingCycle(ctx, cycleEnd, now, actor)).closed) closed.push(cycleEnd);
  }
  return { closed };
}
