import { storedFileLink } from '../core/stored-files';
import { sql } from 'kysely';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import { currentStock, previousMonthSales } from './commands';

/** Reads of the stockist read tables, and their API shapes (naira at the edge). */
export const PAGE_SIZE = 10;
const pageOf = <T>(data: T[], page: number, total: number, perPage = PAGE_SIZE) => ({ data, current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total });
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

function stockistsQuery(db: Executor) {
  return db
    .selectFrom('stockists as s')
    .innerJoin('members as m', 'm.id', 's.member_id')
    .leftJoin('members as g', 'g.id', 's.signee_id')
    .leftJoin('stockist_packages as p', 'p.id', 's.package_id')
    .leftJoin('stockist_payments as pay', 'pay.id', 's.payment_id')
    .select([
      's.id', 's.member_id', 's.store_name', 's.store_address', 's.store_state', 's.store_phone', 's.package_id', 's.status', 's.payment_id', 's.receipt_path',
      's.registration_value', 's.created_at', 'm.username', 'm.first_name', 'm.last_name', 'g.username as signee', 'p.name as package_name',
      'p.sales_bonus_percentage', 'pay.status as payment_status', 'pay.decided_at',
    ]);
}
type StockistRow = Awaited<ReturnType<ReturnType<typeof stockistsQuery>['executeTakeFirstOrThrow']>>;

export function stockistToApi(r: StockistRow) {
  return {
    id: r.id,
    uuid: r.member_id,
    user_uuid: r.member_id,
    store_name: r.store_name,
    store_address: r.store_address,
    store_state: r.store_state,
    store_phone: r.store_phone,
    package_id: r.package_id,
    package_name: r.package_name ?? '',
    stockist_package: r.package_name ?? '',
    stockist_package_value: koboToNaira(Number(r.registration_value)),
    rebate: Number(r.sales_bonus_percentage ?? 0),
    username: r.username,
    first_name: r.first_name,
    last_name: r.last_name,
    referrer: r.signee ?? '',
    stockist_status: r.status,
    status: r.status,
    reg_date: r.created_at.toISOString(),
    payment_id: r.payment_id,
    payment_receipt: storedFileLink(r.receipt_path),
    payment_status: r.payment_status ?? r.status,
    payment_date: iso(r.decided_at),
  };
}

export async function findStockist(db: Executor, id: string) {
  const row = await stockistsQuery(db).where('s.id', '=', id).executeTakeFirst();
  return row ? stockistToApi(row) : null;
}

/** A member's stockist account: the approved one, else the newest application. */
export async function stockistOfMember(db: Executor, memberId: string) {
  const row = await stockistsQuery(db)
    .where('s.member_id', '=', memberId)
    .orderBy(sql`case s.status when 'approved' then 0 when 'pending' then 1 else 2 end`)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.global_position', 'desc')
    .executeTakeFirst();
  return row ? stockistToApi(row) : null;
}

/** Admin list of stockist registrations by status (`type`: pending, approved, disapproved or all). */
export async function pageStockists(db: Executor, page: number, type: string | undefined) {
  let q = stockistsQuery(db);
  if (type && ['pending', 'approved', 'disapproved'].includes(type)) q = q.where('s.status', '=', type as 'pending');
  const total = Number((await db.selectFrom(q.as('x')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.orderBy('s.created_at', 'desc').orderBy('s.global_position', 'desc').limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE).execute();
  return pageOf(rows.map(stockistToApi), page, total);
}

/** Approved stockists for members choosing where to collect, optionally searched by name, address, state or phone. */
export async function pagePublicStockists(db: Executor, page: number, search: string | undefined) {
  let q = db.selectFrom('stockists').select(['id', 'store_name', 'store_address', 'store_state', 'store_phone']).where('status', '=', 'approved');
  const term = search?.trim();
  if (term) {
    const like = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb(sql`lower(store_name)`, 'like', like), eb(sql`lower(store_address)`, 'like', like), eb(sql`lower(store_state)`, 'like', like), eb(sql`lower(store_phone)`, 'like', like)]));
  }
  const total = Number((await db.selectFrom(q.as('x')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.orderBy('store_name').orderBy('id').limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE).execute();
  return pageOf(rows, page, total);
}

function upgradesQuery(db: Executor) {
  return db
    .selectFrom('stockist_payments as pay')
    .innerJoin('stockists as s', 's.id', 'pay.stockist_id')
    .innerJoin('members as m', 'm.id', 'pay.member_id')
    .leftJoin('stockist_packages as p', 'p.id', 'pay.package_id')
    .leftJoin('stockist_packages as f', 'f.id', 'pay.from_package_id')
    .select([
      'pay.id', 'pay.stockist_id', 'pay.member_id', 'pay.amount', 'pay.receipt_path', 'pay.status', 'pay.created_at', 'pay.decided_at', 's.store_name', 's.store_address',
      's.store_state', 's.store_phone', 's.created_at as reg_date', 'm.username', 'p.name as package_name', 'f.name as from_name',
    ])
    .where('pay.kind', '=', 'upgrade');
}

/** Admin list of stockist upgrades (processing first: the pending ones to decide). */
export async function pageUpgrades(db: Executor, page: number, status: string | undefined) {
  let q = upgradesQuery(db);
  q = q.where('pay.status', '=', (status && ['processing', 'approved', 'disapproved'].includes(status) ? status : 'processing') as 'processing');
  const total = Number((await db.selectFrom(q.as('x')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.orderBy('pay.created_at', 'desc').orderBy('pay.global_position', 'desc').limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE).execute();
  return pageOf(rows.map((r) => ({
    id: r.stockist_id,
    payment_id: r.id,
    user_uuid: r.member_id,
    username: r.username,
    store_name: r.store_name,
    store_address: r.store_address,
    store_state: r.store_state,
    store_phone: r.store_phone,
    stockist_package: r.package_name ?? '',
    from_package: r.from_name,
    stockist_package_value: koboToNaira(Number(r.amount)),
    payment_receipt: storedFileLink(r.receipt_path),
    payment_status: r.status,
    payment_date: r.created_at.toISOString(),
    reg_date: r.reg_date.toISOString(),
    status: r.status,
  })), page, total);
}

/** A member's stockist package payments (registration and upgrades), newest first. */
export async function upgradeHistory(db: Executor, memberId: string) {
  const rows = await db
    .selectFrom('stockist_payments as pay')
    .leftJoin('stockist_packages as p', 'p.id', 'pay.package_id')
    .select(['pay.id', 'pay.kind', 'pay.status', 'pay.amount', 'pay.created_at', 'p.name'])
    .where('pay.member_id', '=', memberId)
    .orderBy('pay.created_at', 'desc')
    .orderBy('pay.global_position', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, package_name: r.name ?? '', status: r.status, registration_value: koboToNaira(Number(r.amount)), created_at: r.created_at.toISOString(), kind: r.kind }));
}

/** The stockist record's cards: package, rebate percent, rebate wallet (Σ rebates credited). */
export async function stockistStats(db: Executor, stockist: { id: string; member_id: string; package_id: number }) {
  const pkg = await db.selectFrom('stockist_packages').select(['name', 'sales_bonus_percentage']).where('id', '=', stockist.package_id).executeTakeFirst();
  const rebate = await db
    .selectFrom('wallet_entries')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('kobo'))
    .where('member_id', '=', stockist.member_id)
    .where('kind', '=', 'stockist_rebate')
    .where('entry', '=', 'credited')
    .executeTakeFirstOrThrow();
  const units = await db.selectFrom('stockist_stock').select(sql<string>`coalesce(sum(quantity), 0)`.as('n')).where('stockist_id', '=', stockist.id).executeTakeFirstOrThrow();
  return { package: pkg?.name ?? '', package_id: stockist.package_id, rebate: Number(pkg?.sales_bonus_percentage ?? 0), rebate_bonus: koboToNaira(Number(rebate.kobo)), stock_units: Number(units.n) };
}

/** The stock record: the worker's read model, with the catalogue's price. */
export async function stockOf(db: Executor, stockistId: string) {
  const rows = await db
    .selectFrom('stockist_stock as st')
    .innerJoin('products as p', 'p.id', 'st.product_id')
    .select(['st.product_id', 'p.name', 'p.image', 'p.worth', 'st.quantity'])
    .where('st.stockist_id', '=', stockistId)
    .orderBy('p.name')
    .execute();
  return rows.map((r) => ({ product_id: r.product_id, name: r.name, image: r.image, cost_price: koboToNaira(Number(r.worth)), quantity: r.quantity, in_stock: r.quantity > 0 }));
}

/** Rebates credited to a stockist, by Lagos month, newest first. */
export async function rebateEarnings(db: Executor, memberId: string) {
  const rows = await db
    .selectFrom('wallet_entries')
    .select([sql<string>`to_char(recorded_at at time zone 'Africa/Lagos', 'YYYY-MM')`.as('month'), sql<string>`sum(amount)`.as('kobo')])
    .where('member_id', '=', memberId)
    .where('kind', '=', 'stockist_rebate')
    .where('entry', '=', 'credited')
    .groupBy(sql`1`)
    .orderBy(sql`1`, 'desc')
    .execute();
  return rows.map((r) => ({ month: r.month, created_at: `${r.month}-01T00:00:00+01:00`, value: koboToNaira(Number(r.kobo)) }));
}

/** Company figures: approved stockists, Σ approved stock purchases, Σ orders stockists handed over. */
export async function adminStockistStats(db: Executor) {
  const count = await db.selectFrom('stockists').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'approved').executeTakeFirstOrThrow();
  const purchases = await db.selectFrom('stock_purchases').select(sql<string>`coalesce(sum(total_price), 0)`.as('kobo')).where('status', '=', 'approved').executeTakeFirstOrThrow();
  const sales = await db.selectFrom('product_purchases').select(sql<string>`coalesce(sum(total_price), 0)`.as('kobo')).where('collected_by', '=', 'stockist').executeTakeFirstOrThrow();
  return { stockist_count: Number(count.n), stockist_purchases_sum: koboToNaira(Number(purchases.kobo)), stockist_sales_sum: koboToNaira(Number(sales.kobo)) };
}

export async function stockistSalesStats(db: Executor, stockistId: string) {
  const purchases = await db.selectFrom('stock_purchases').select(sql<string>`coalesce(sum(total_price), 0)`.as('kobo')).where('stockist_id', '=', stockistId).where('status', '=', 'approved').executeTakeFirstOrThrow();
  const sales = await db.selectFrom('product_purchases').select(sql<string>`coalesce(sum(total_price), 0)`.as('kobo')).where('stockist_id', '=', stockistId).executeTakeFirstOrThrow();
  return { total_purchases: koboToNaira(Number(purchases.kobo)), total_sales: koboToNaira(Number(sales.kobo)) };
}

function stockPurchasesQuery(db: Executor) {
  return db
    .selectFrom('stock_purchases as sp')
    .innerJoin('stockists as s', 's.id', 'sp.stockist_id')
    .innerJoin('members as m', 'm.id', 'sp.member_id')
    .leftJoin('stockist_packages as p', 'p.id', 'sp.package_id')
    .select([
      'sp.id', 'sp.member_id', 'sp.pickup_type', 'sp.total_quantity', 'sp.total_price', 'sp.total_points', 'sp.receipt_path', 'sp.payment_id', 'sp.status', 'sp.status_reason', 'sp.created_at',
      's.store_name', 'm.username', 'p.name as package_name',
    ]);
}

async function withStockLines(db: Executor, rows: Awaited<ReturnType<ReturnType<typeof stockPurchasesQuery>['execute']>>) {
  const lines = rows.length === 0 ? [] : await db
    .selectFrom('stock_purchase_lines as l')
    .leftJoin('products as p', 'p.id', 'l.product_id')
    .select(['l.purchase_id', 'l.product_id', 'l.name', 'l.qty', 'l.price', 'l.points', 'p.image'])
    .where('l.purchase_id', 'in', rows.map((r) => r.id))
    .orderBy('l.product_id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    purchase_id: r.id,
    user_uuid: r.member_id,
    username: r.username,
    store_name: r.store_name,
    stockist_package: r.package_name ?? '',
    pickup_type: r.pickup_type,
    total_quantity: r.total_quantity,
    total_price: koboToNaira(Number(r.total_price)),
    total_points: r.total_points,
    payment_receipt: storedFileLink(r.receipt_path),
    payment_method: r.payment_id ? ('payment_gateway' as const) : r.receipt_path ? ('pop' as const) : ('package' as const),
    status: r.status,
    status_reason: r.status_reason,
    created_at: r.created_at.toISOString(),
    products: lines.filter((l) => l.purchase_id === r.id).map((l) => ({ product_id: l.product_id, name: l.name, image: l.image, product_qty: l.qty, price: koboToNaira(Number(l.price)), points: l.points })),
  }));
}

/** Stock purchases: one stockist's (its record) or everybody's (the admin's Stockist Purchases), by status. */
export async function pageStockPurchases(db: Executor, page: number, filter: { stockistId?: string; status?: string }) {
  let q = stockPurchasesQuery(db);
  if (filter.stockistId) q = q.where('sp.stockist_id', '=', filter.stockistId);
  if (filter.status && ['awaiting_payment', 'processing', 'approved', 'declined'].includes(filter.status)) q = q.where('sp.status', '=', filter.status as 'processing');
  const total = Number((await db.selectFrom(q.as('x')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.orderBy('sp.created_at', 'desc').orderBy('sp.global_position', 'desc').limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE).execute();
  return pageOf(await withStockLines(db, rows), page, total);
}

/** Each line of a stockist's stock purchases (the record's purchase history). */
export async function stockDetails(db: Executor, stockistId: string) {
  const rows = await db
    .selectFrom('stock_purchase_lines as l')
    .innerJoin('stock_purchases as sp', 'sp.id', 'l.purchase_id')
    .select(['l.name', 'l.purchase_id', 'l.qty', 'l.price', 'sp.created_at', 'sp.status', 'sp.pickup_type'])
    .where('sp.stockist_id', '=', stockistId)
    .orderBy('sp.created_at', 'desc')
    .orderBy('sp.global_position', 'desc')
    .orderBy('l.product_id')
    .limit(500)
    .execute();
  return rows.map((r) => ({ name: r.name, product_purchase_id: r.purchase_id, product_qty: r.qty, price: koboToNaira(Number(r.price) * r.qty), created_at: r.created_at.toISOString(), status: r.status, pickup_type: r.pickup_type }));
}

export async function prevMonthSales(db: Executor, stockistId: string, now: Date) {
  const s = await previousMonthSales(db, stockistId, now);
  return { month: s.month, total_sales: koboToNaira(s.salesKobo), restocked: koboToNaira(s.restockedKobo), available: koboToNaira(Math.max(0, s.salesKobo - s.restockedKobo)) };
}

/** Orders a stockist handed over, newest first. */
export async function processedOrders(db: Executor, stockistId: string, page: number) {
  const q = db
    .selectFrom('product_purchases as o')
    .innerJoin('members as m', 'm.id', 'o.member_id')
    .select(['o.id', 'o.pickup_type', 'o.total_price', 'o.status', 'o.created_at', 'o.collected_at', 'm.username', 'm.first_name', 'm.last_name', 'm.phone', 'm.email'])
    .where('o.stockist_id', '=', stockistId);
  const total = Number((await db.selectFrom(q.as('x')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.orderBy('o.collected_at', 'desc').limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE).execute();
  return pageOf(rows.map((r) => ({
    id: r.id, order_id: r.id, username: r.username, first_name: r.first_name, last_name: r.last_name, phone: r.phone, email: r.email, pickup_type: r.pickup_type,
    total_price: koboToNaira(Number(r.total_price)), status: r.status, created_at: (r.collected_at ?? r.created_at).toISOString(), order_date: r.created_at.toISOString(),
  })), page, total);
}

/**
 * An order looked up by its code, for the stockist about to hand it over: each line with what the
 * stockist holds (from its stock stream, what approval decides on), and the member's details.
 */
export async function lookupOrder(db: Executor, code: string, stockistId: string) {
  const order = await db
    .selectFrom('product_purchases as o')
    .innerJoin('members as m', 'm.id', 'o.member_id')
    .leftJoin('member_profiles as mp', 'mp.member_id', 'm.id')
    .select(['o.id', 'o.order_code', 'o.status', 'o.pickup_type', 'o.total_price', 'm.username', 'm.first_name', 'm.last_name', 'm.phone', 'm.email', 'mp.photo_path'])
    .where('o.order_code', '=', code.trim().toUpperCase())
    .executeTakeFirst();
  if (!order) return null;
  const lines = await db
    .selectFrom('product_purchase_lines as l')
    .leftJoin('products as p', 'p.id', 'l.product_id')
    .select(['l.product_id', 'l.name', 'l.qty', 'l.price', 'l.points', 'p.image'])
    .where('l.purchase_id', '=', order.id)
    .orderBy('l.product_id')
    .execute();
  const stock = await currentStock(db, stockistId);
  const products = lines.map((l) => {
    const held = stock.get(l.product_id) ?? 0;
    return {
      product_id: l.product_id, name: l.name, image: l.image, worth: koboToNaira(Number(l.price)), unit_price: koboToNaira(Number(l.price)), price: koboToNaira(Number(l.price) * l.qty),
      product_qty: l.qty, points: l.points, in_stock: held > 0 ? 1 : 0, stock_qty: held, qualify: held >= l.qty ? 1 : 0, claim_type: order.pickup_type, product_purchase_id: order.id,
    };
  });
  return {
    purchase_id: order.id,
    order_code: order.order_code!,
    status: order.status,
    pickup_type: order.pickup_type,
    total_price: koboToNaira(Number(order.total_price)),
    can_approve: order.status === 'processing' && products.every((p) => p.qualify === 1),
    products,
    user: { username: order.username, first_name: order.first_name, last_name: order.last_name, phone: order.phone, email: order.email, photo_path: storedFileLink(order.photo_path) },
  };
}

/** Product claims: the lines of members' orders (allowance and paid pick-ups), by status. */
export async function pageClaims(db: Executor, page: number, filter: { memberId?: string; status?: string }) {
  let q = db
    .selectFrom('product_purchase_lines as l')
    .innerJoin('product_purchases as o', 'o.id', 'l.purchase_id')
    .innerJoin('members as m', 'm.id', 'o.member_id')
    .leftJoin('products as p', 'p.id', 'l.product_id')
    .select(['l.purchase_id', 'l.product_id', 'l.name', 'l.qty', 'l.price', 'l.points', 'p.image', 'o.pickup_type', 'o.status', 'o.created_at', 'o.global_position', 'm.username'])
    .where('o.status', 'in', ['processing', 'approved', 'declined']);
  if (filter.memberId) q = q.where('o.member_id', '=', filter.memberId);
  if (filter.status) q = q.where('o.status', '=', filter.status as 'processing');
  const total = Number((await db.selectFrom(q.as('x')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.orderBy('o.created_at', 'desc').orderBy('o.global_position', 'desc').orderBy('l.product_id').limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE).execute();
  return pageOf(rows.map((r) => ({
    id: r.purchase_id, product_purchase_id: r.purchase_id, product_id: r.product_id, name: r.name, image: r.image, worth: koboToNaira(Number(r.price)), points: r.points, product_qty: r.qty,
    pickup_type: r.pickup_type, status: r.status, username: r.username, created_at: r.created_at.toISOString(),
  })), page, total);
}

export async function claimTotals(db: Executor) {
  const row = await db
    .selectFrom('product_purchase_lines as l')
    .innerJoin('product_purchases as o', 'o.id', 'l.purchase_id')
    .select([sql<string>`coalesce(sum(l.qty), 0)`.as('qty'), sql<string>`coalesce(sum(l.qty * l.price), 0)`.as('kobo')])
    .where('o.status', '=', 'approved')
    .executeTakeFirstOrThrow();
  return { quantity: Number(row.qty), valueKobo: Number(row.kobo) };
}

/** The lines of an order (a member's order or a stock purchase). */
export async function orderDetails(db: Executor, id: string) {
  const order = await db.selectFrom('product_purchases').select(['id', 'status', 'pickup_type', 'member_id', 'stockist_id']).where('id', '=', id).executeTakeFirst();
  const stock = order ? null : await db.selectFrom('stock_purchases').select(['id', 'status', 'pickup_type', 'member_id', 'stockist_id']).where('id', '=', id).executeTakeFirst();
  const found = order ?? stock;
  if (!found) return null;
  const table = order ? 'product_purchase_lines' : 'stock_purchase_lines';
  const lines = await db
    .selectFrom(`${table} as l` as 'product_purchase_lines as l')
    .leftJoin('products as p', 'p.id', 'l.product_id')
    .select(['l.product_id', 'l.name', 'l.qty', 'l.price', 'l.points', 'p.image'])
    .where('l.purchase_id', '=', id)
    .orderBy('l.product_id')
    .execute();
  return {
    owner: found.member_id,
    stockistId: found.stockist_id,
    data: {
      id: found.id,
      status: found.status,
      pickup_type: found.pickup_type,
      products: lines.map((l) => ({ product_id: l.product_id, name: l.name, image: l.image, product_qty: l.qty, price: koboToNaira(Number(l.price)), points: l.points })),
    },
  };
}

