import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type ResourceColumns, parseListRequest, selectPage, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import { type ProductSalesMonth, monthlyRepurchase, productSalesMonth, productSalesSum } from '../contracts/finance';
import { envelope } from '../contracts/http';
import { NotFound } from '../core/errors';
import { koboToNaira } from '../core/money';

/**
 * Product sales for the back office (seed 002 Transactions tab 3 "Product Sales History", §7
 * "Product purchases" /sum-prices and /monthly-repurchases). A sale counts once it is paid
 * (`paid_at` set: a card payment verified, a receipt approved, or paid from the wallet; a
 * declined receipt or an abandoned checkout never is), in the Lagos month it was paid.
 * Every payable product purchase is a repurchase today (purchases/commands.ts `isPaidPickup`),
 * so the sum of all sales equals the sum of the monthly repurchases.
 */
const paidSales = sql`paid_at is not null and status <> 'declined'`;

/** One row per month with repurchases, in kobo; `id` = "YYYY-MM". */
const months = sql`(
  select lpad(y::text, 4, '0') || '-' || lpad(mo::text, 2, '0') as id, y as year, mo as month, total_qty, total_kobo, orders
  from (
    select extract(year from paid_at at time zone 'Africa/Lagos')::int as y, extract(month from paid_at at time zone 'Africa/Lagos')::int as mo,
      coalesce(sum(total_quantity), 0)::bigint as total_qty, coalesce(sum(total_price), 0)::bigint as total_kobo, count(*)::int as orders
    from product_purchases
    where ${paidSales} and pickup_type = 'repurchase_pickup'
    group by 1, 2
  ) grouped
) months`;

type MonthRow = { id: string; year: number; month: number; total_qty: number; total_kobo: number; orders: number };

const toMonth = (r: MonthRow): ProductSalesMonth => ({
  id: r.id,
  period: r.id,
  year: Number(r.year),
  month: Number(r.month),
  total_qty: Number(r.total_qty),
  total: koboToNaira(Number(r.total_kobo)),
  orders: Number(r.orders),
});

const productSalesResource = {
  columns: {
    id: { sql: sql`id`, type: 'text' },
    period: { sql: sql`id`, type: 'text' },
    year: { sql: sql`year`, type: 'number' },
    month: { sql: sql`month`, type: 'number' },
    total_qty: { sql: sql`total_qty`, type: 'number' },
    total: { sql: sql`(total_kobo / 100.0)`, type: 'number' },
    orders: { sql: sql`orders`, type: 'number' },
  } satisfies ResourceColumns,
  defaultSort: ['period', 'DESC'] as ['period', 'DESC'],
};

export const adminPurchaseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/product-purchases/monthly-repurchases',
    { preHandler: requireAdmin('read'), schema: { tags: ['purchases'], response: { 200: envelope(z.array(monthlyRepurchase)) } } },
    async () => {
      const { rows } = await sql<MonthRow>`select * from ${months} order by id desc`.execute(app.db);
      return { success: true, message: 'Monthly repurchases', data: rows.map(toMonth).map(({ month, year, total_qty, total }) => ({ month, year, total_qty, total })) };
    },
  );

  app.get(
    '/product-purchases/sum-prices',
    { preHandler: requireAdmin('read'), schema: { tags: ['purchases'], response: { 200: envelope(productSalesSum) } } },
    async () => {
      const { rows } = await sql<{ total_kobo: number; total_qty: number; count: number }>`
        select coalesce(sum(total_price), 0)::bigint as total_kobo, coalesce(sum(total_quantity), 0)::bigint as total_qty, count(*)::int as count
        from product_purchases where ${paidSales}`.execute(app.db);
      const row = rows[0]!;
      return { success: true, message: 'Total product sales', data: { total: koboToNaira(Number(row.total_kobo)), total_qty: Number(row.total_qty), count: Number(row.count) } };
    },
  );

  /** The back office's `product-sales` resource (API.md §2): one record per month. */
  app.get(
    '/admin/product-sales',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(productSalesMonth) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, productSalesResource);
      const { rows, total } = await selectPage<MonthRow>(app.db, { columns: sql`*`, from: sql`from ${months}`, tiebreak: sql`id desc`, list });
      return sendList(reply, 'product-sales', list, rows.map(toMonth), total);
    },
  );

  app.get(
    '/admin/product-sales/:id',
    {
      preHandler: requireAdmin('read'),
      schema: { tags: ['admin'], params: z.object({ id: z.string().regex(/^\d{4}-\d{2}$/, { error: 'Month not found.' }) }), response: { 200: productSalesMonth } },
    },
    async (request) => {
      const { rows } = await sql<MonthRow>`select * from ${months} where id = ${request.params.id}`.execute(app.db);
      if (!rows[0]) throw new NotFound('Month not found.');
      return toMonth(rows[0]);
    },
  );
};
