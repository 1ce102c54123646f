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
 * What the dashboard counts as a pick-up, one row per sale with its kind, kobo and the instant it
 * was paid. Stockists do not hand over orders yet (no pick-up is recorded), so until they do the
 * dashboard counts what the portal records as paid:
 * - registration: an approved registration payment (package_payments, purpose `registration`);
 * - upgrade: an approved upgrade payment (purpose `upgrade`);
 * - repurchase: a paid repurchase order (product_purchases, `repurchase_pickup`, paid_at set and
 *   not declined).
 * The amount is what was paid (`amount_paid`; a receipt an admin approved has none, so the amount
 * due it was approved for).
 */
function sales(db: Executor) {
  return db
    .selectFrom('package_payments')
    .select([
      sql<Kind>`purpose::text`.as('kind'),
      sql<string>`coalesce(amount_paid, amount_due)`.as('kobo'),
      sql<Date>`coalesce(decided_at, updated_at)`.as('at'),
    ])
    .where('status', '=', 'approved')
    .where('purpose', 'in', ['registration', 'upgrade'])
    .unionAll(
      db
        .selectFrom('product_purchases')
        .select([sql<Kind>`'repurchase'`.as('kind'), sql<string>`total_price`.as('kobo'), sql<Date>`paid_at`.as('at')])
        .where('pickup_type', '=', 'repurchase_pickup')
        .where('paid_at', 'is not', null)
        .where('status', '!=', 'declined'),
    );
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
    .selectFrom(sales(db).as('s'))
    .select(['s.kind', (eb) => eb.fn.countAll<string>().as('n'), sql<string>`coalesce(sum(s.kobo), 0)`.as('kobo')])
    .groupBy('s.kind');
  if (start) totals = totals.where('s.at', '>=', start);

  const months = lastTwelveMonths(now);
  const monthly = await db
    .selectFrom(sales(db).as('s'))
    .select([
      's.kind',
      sql<string>`to_char(s.at at time zone 'Africa/Lagos', 'YYYY-MM')`.as('month'),
      (eb) => eb.fn.countAll<string>().as('n'),
      sql<string>`coalesce(sum(s.kobo), 0)`.as('kobo'),
    ])
    .where('s.at', '>=', new Date(`${months[0]}-01T00:00:00+01:00`))
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
