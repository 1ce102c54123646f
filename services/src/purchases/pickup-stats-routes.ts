import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { sql } from 'kysely';
import { requireAdmin } from '../auth/guards';
import { envelope } from '../contracts/http';
import { type PickupStats, pickupStats, pickupStatsQuery } from '../contracts/pickup-stats';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import { periodStart } from '../profit-sharing/queries';
import { companyDate } from '../wallet/payout-schedule';

type Period = PickupStats['type'];
type Kind = 'registration' | 'upgrade' | 'repurchase';
const kinds: readonly Kind[] = ['registration', 'upgrade', 'repurchase'];

/** The twelve Lagos months ending with the one containing `now`, oldest first, as YYYY-MM. */
function lastTwelveMonths(now: Date): string[] {
  const today = companyDate(now);
  const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  return Array.from({ length: 12 }, (_, i) => {
    const index = year * 12 + (month - 1) - (11 - i);
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

/**
 * What the dashboard counts as a pick-up, per Lagos day and kind, with its count and kobo. Stockists
 * do not hand over orders yet (no pick-up is recorded), so until they do the dashboard counts what
 * the portal records as paid, from the read models' daily totals (core/daily-totals.ts):
 * - registration, upgrade: approved payments of that purpose (payments/projections.ts paymentTotals);
 * - repurchase: paid repurchase pick-up orders not declined (purchases/projections.ts repurchaseTotals).
 */
function salesByDay(db: Executor) {
  return db
    .selectFrom('daily_payment_totals')
    .select(['day', sql<Kind>`key`.as('kind'), 'n', sql<number>`amount`.as('kobo')])
    .where('key', 'in', ['registration', 'upgrade'])
    .unionAll(db.selectFrom('daily_repurchase_totals').select(['day', sql<Kind>`'repurchase'`.as('kind'), 'n', sql<number>`amount`.as('kobo')]));
}

type Figures = Omit<PickupStats, 'type' | 'monthly'>;
function figuresOf(rows: ReadonlyArray<{ kind: Kind; n: string | number; kobo: string | number }>): Figures {
  const figures = {} as Record<string, number>;
  for (const kind of kinds) {
    const row = rows.find((r) => r.kind === kind);
    figures[`${kind}_count`] = Number(row?.n ?? 0);
    figures[`${kind}_amount`] = koboToNaira(Number(row?.kobo ?? 0));
  }
  return figures as Figures;
}

/** Pick-up counts and naira per type over the period, and per month over the last twelve months. */
export async function pickupStatsOf(db: Executor, period: Period, now: Date): Promise<PickupStats> {
  const start = periodStart(period, now);
  let totals = db
    .selectFrom(salesByDay(db).as('s'))
    .select(['s.kind', sql<string>`sum(s.n)`.as('n'), sql<string>`coalesce(sum(s.kobo), 0)`.as('kobo')])
    .groupBy('s.kind');
  if (start) totals = totals.where('s.day', '>=', companyDate(start));

  const months = lastTwelveMonths(now);
  const monthly = await db
    .selectFrom(salesByDay(db).as('s'))
    .select(['s.kind', sql<string>`to_char(s.day, 'YYYY-MM')`.as('month'), sql<string>`sum(s.n)`.as('n'), sql<string>`coalesce(sum(s.kobo), 0)`.as('kobo')])
    .where('s.day', '>=', `${months[0]}-01`)
    .groupBy(['s.kind', sql`2`])
    .execute();

  return {
    ...figuresOf(await totals.execute()),
    type: period,
    monthly: months.map((month) => ({ month, ...figuresOf(monthly.filter((r) => r.month === month)) })),
  };
}

/** GET /product-purchases/pickup-stats?type=all|today|month|year: the admin dashboard's pick-up figures (admins and finance). */
export const pickupStatsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/product-purchases/pickup-stats',
    { preHandler: requireAdmin('read'), schema: { tags: ['purchases'], querystring: pickupStatsQuery, response: { 200: envelope(pickupStats) } } },
    async (request) => ({ success: true, message: 'Pickup stats', data: await pickupStatsOf(app.db, request.query.type, app.clock()) }),
  );
};
