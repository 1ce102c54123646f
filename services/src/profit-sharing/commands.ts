import { type Transaction, sql } from 'kysely';
import { type CommandContext, runInTransaction } from '../core/command';
import type { Executor } from '../core/db';
import { ConcurrencyConflict } from '../core/errors';
import { type Actor, type EventMetadata, appendToStream, streamVersion } from '../core/event-store';
import type { Database } from '../database';
import { changeSettings } from '../settings/commands';
import { SETTINGS_STREAM } from '../settings/events';
import { getSettings } from '../settings/projections';
import { companyDate } from '../wallet/payout-schedule';
import { type GlobalProfitShared, type ProfitPoolShared, globalProfitStream, profitPoolStream } from './events';
import { addMonths, dueGlobalProfitShare, previousMonth, profitPool, profitPoolCriteria, profitPoolPackageId } from './policies';

type Trx = Transaction<Database>;

/**
 * The periodic runs, started by the scheduled jobs (worker/schedules.ts) every hour. Each decides
 * whether its period is due, and records the run on the period's stream at expected version 0 in
 * the same transaction as its other writes: two workers racing, or a job repeated, run a period
 * once (the loser's append conflicts, its retry finds nothing due). The members are paid by the
 * policy (projections.ts) from the recorded run.
 */

/** The schedule's metadata, or an admin's who ran the period by hand (the back office's "Run due"). */
const runMetadata = (actor: Actor, now: Date, correlation: string): EventMetadata => ({
  actor,
  now: now.toISOString(),
  causation_id: null,
  correlation_id: correlation,
});

/** A period already run (or run by a racing worker a moment ago): nothing to do. */
async function alreadyRun(trx: Trx, stream: string): Promise<boolean> {
  return (await streamVersion(trx, stream)).version > 0;
}

/** The company date the share month or day was last set (by an admin, the seed, or the previous share). */
export async function shareDateAnchor(db: Executor): Promise<string | null> {
  const { rows } = await sql<{ recorded_at: Date }>`
    select recorded_at from events
    where stream_id = ${SETTINGS_STREAM} and type = 'SettingsChanged'
      and (data->'changes' ? 'next_global_profit_share_month' or data->'changes' ? 'next_global_profit_share_day')
    order by stream_position desc limit 1`.execute(db);
  return rows[0] ? companyDate(rows[0].recorded_at) : null;
}

export type RunResult = { period: string | null; ran: boolean };

async function conflictMeansDone<T extends RunResult>(run: () => Promise<T>, period: () => string | null): Promise<RunResult> {
  try {
    return await run();
  } catch (error) {
    // Retries exhausted against another runner of the same period: it ran there.
    if (error instanceof ConcurrencyConflict) return { period: period(), ran: false };
    throw error;
  }
}

/**
 * Global profit (BUSINESS-RULES.md §3): on or after the share date, record the share and move the
 * next share date one month on, as a settings change by the run's actor (the schedule, or the
 * admin who ran it by hand from the back office; the same command an admin's change goes through,
 * so the settings record and its history say who moved it and why).
 */
export async function runGlobalProfitShare(ctx: CommandContext, now: Date, actor: Actor = { type: 'system', id: 'global-profit' }): Promise<RunResult> {
  let period: string | null = null;
  return conflictMeansDone(
    () =>
      runInTransaction(ctx, async (trx) => {
        const settings = await getSettings(trx);
        const anchor = await shareDateAnchor(trx);
        if (!anchor) return { period: null, ran: false };
        const due = dueGlobalProfitShare({ today: companyDate(now), anchor, settings });
        if (!due) return { period: null, ran: false };
        period = due.share_date;
        const stream = globalProfitStream(due.share_date);
        // Left as it is when the date was already shared (an admin set it back to a shared date): nothing is paid twice.
        if (await alreadyRun(trx, stream)) return { period, ran: false };
        const metadata = runMetadata(actor, now, stream);
        const event: GlobalProfitShared = {
          type: 'GlobalProfitShared',
          data: { share_date: due.share_date, pool_kobo: due.pool_kobo, first_percentage: due.first_percentage, second_percentage: due.second_percentage },
        };
        const [recorded] = await appendToStream(trx, stream, [event], { expectedVersion: 0, metadata });
        await changeSettings(trx, { next_global_profit_share_month: due.next_month }, { ...metadata, causation_id: recorded!.eventId });
        return { period, ran: true };
      }),
    () => period,
  );
}

/** The first instant of a month (YYYY-MM) in Lagos (UTC+1 all year). */
const monthStart = (month: string) => new Date(`${month}-01T00:00:00+01:00`);

/** Σ registration and upgrade payments approved in the month, in kobo (card, receipt and wallet alike). */
export async function paymentsOfMonth(db: Executor, month: string): Promise<number> {
  const row = await db
    .selectFrom('package_payments')
    .select(sql<string>`coalesce(sum(coalesce(amount_paid, amount_due)), 0)`.as('total'))
    .where('status', '=', 'approved')
    .where('purpose', 'in', ['registration', 'upgrade'])
    .where('decided_at', '>=', monthStart(month))
    .where('decided_at', '<', monthStart(addMonths(`${month}-01`, 1).slice(0, 7)))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * Profit pool (BUSINESS-RULES.md §3): on or after the 1st, the previous month's pool =
 * pct(that month's registration and upgrade payments, profit_pool_percentage), with the criteria
 * in force, recorded once for the month.
 */
export async function runProfitPoolShare(ctx: CommandContext, now: Date, actor: Actor = { type: 'system', id: 'profit-pool' }): Promise<RunResult> {
  const month = previousMonth(companyDate(now));
  return conflictMeansDone(
    () =>
      runInTransaction(ctx, async (trx) => {
        const stream = profitPoolStream(month);
        if (await alreadyRun(trx, stream)) return { period: month, ran: false };
        const settings = await getSettings(trx);
        const packages = await trx.selectFrom('packages').select('id').execute();
        const packageId = profitPoolPackageId(packages.map((p) => p.id));
        if (packageId === null) return { period: month, ran: false };
        const basis = await paymentsOfMonth(trx, month);
        const event: ProfitPoolShared = {
          type: 'ProfitPoolShared',
          data: {
            month,
            basis_kobo: basis,
            percentage: settings.profit_pool_percentage,
            pool_kobo: profitPool(basis, settings.profit_pool_percentage),
            criteria: profitPoolCriteria(settings, packageId),
          },
        };
        await appendToStream(trx, stream, [event], { expectedVersion: 0, metadata: runMetadata(actor, now, stream) });
        return { period: month, ran: true };
      }),
    () => month,
  );
}
