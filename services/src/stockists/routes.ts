import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { authenticate, requireAdmin, requireMember, requireSelfOrAdmin, requireSignedIn } from '../auth/guards';
import { reauthenticate } from '../auth/reauthenticate';
import { findMember } from '../membership/queries';
import { envelope } from '../contracts/http';
import { pickupStatus, purchaseOrderBody } from '../contracts/purchases';
import {
  adminStockistStats,
  orderCodeBody,
  orderDetails as orderDetailsShape,
  orderLookup,
  pagedProcessedOrders,
  pagedProductClaims,
  pagedPublicStockists,
  pagedStockPurchases,
  pagedStockistUpgrades,
  pagedStockists,
  prevMonthSales as prevMonthSalesShape,
  rebateEarning,
  stockDetail,
  stockPickupType,
  stockRecord,
  stockist,
  stockistApplicationFields,
  stockistPackageDifference,
  stockistSalesStats as stockistSalesStatsShape,
  stockistStats as stockistStatsShape,
  stockistUpdateBody,
  stockistUpgradeFields,
  stockistUpgradeHistoryRow,
} from '../contracts/stockists';
import { Forbidden, NotFound, RuleViolation } from '../core/errors';
import { koboToNaira } from '../core/money';
import { parseFormFields, readForm, storeImage, uploadMessages } from '../core/uploads';
import { approveClaim, declineClaim, placeAllowancePurchase } from '../purchases/commands';
import { purchaseMessages } from '../purchases/decider';
import {
  applyForStockist,
  approvedStockistOf,
  collectOrder,
  decideApplication,
  decideStockPurchase,
  decideUpgrade,
  ownStockist,
  requestStockPurchase,
  requestUpgrade,
  stockAllowance,
  stockPickupStatus,
  updateStore,
} from './commands';
import { stockistMessages } from './decider';
import {
  adminStockistStats as adminStats,
  claimTotals,
  findStockist,
  lookupOrder,
  orderDetails,
  pageClaims,
  pagePublicStockists,
  pageStockPurchases,
  pageStockists,
  pageUpgrades,
  prevMonthSales,
  processedOrders,
  rebateEarnings,
  stockDetails,
  stockOf,
  stockistOfMember,
  stockistSalesStats,
  stockistStats,
  upgradeHistory,
} from './queries';

const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });
const stockistParams = z.object({ id: z.uuid({ error: 'Stockist not found.' }) });
const purchaseParams = z.object({ id: z.uuid({ error: 'Order not found.' }) });
const stockPurchaseParams = z.object({ id: z.uuid({ error: 'Stock purchase not found.' }) });
const page = z.coerce.number().int().min(1).catch(1).default(1);
const pageQuery = z.object({ page, type: z.string().optional(), status: z.string().optional() });
const decisionBody = z.object({ reason: z.string().max(500).optional() }).nullish();
const RECEIPT_FIELDS = ['payment_receipt', 'receipt', 'file', 'image'];
const STOCKIST_APPLICATIONS_PER_HOUR = 10;
const ok = <T>(message: string, data: T) => ({ success: true, message, data });

/** Stores the receipt of a multipart request (checked like every upload), or null when none was sent and none is required. */
async function receiptOf(app: FastifyInstance, files: Awaited<ReturnType<typeof readForm>>['files'], required: boolean): Promise<string | null> {
  const file = RECEIPT_FIELDS.map((name) => files[name]).find(Boolean) ?? Object.values(files)[0];
  if (!file) {
    if (required) throw new RuleViolation(uploadMessages.required, 'payment_receipt');
    return null;
  }
  return storeImage(app.config.UPLOAD_DIR, 'receipts', file, 'payment_receipt');
}

/** Runs a command that was given a stored receipt; a refused command keeps no file. */
async function withReceipt<T>(app: FastifyInstance, receiptPath: string | null, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (receiptPath) await rm(path.resolve(app.config.UPLOAD_DIR, receiptPath.replace(/^storage\//, '')), { force: true });
    throw error;
  }
}

/** The stockist of the member named in the path, for /stockists/{uuid}/... reads (self or admin, checked by the guard). */
async function stockistOfPath(app: FastifyInstance, id: string) {
  const found = await app.db
    .selectFrom('stockists')
    .select(['id', 'member_id', 'package_id'])
    .where((eb) => eb.or([eb('member_id', '=', id), eb('id', '=', id)]))
    .orderBy('created_at', 'desc')
    .where('status', '=', 'approved')
    .executeTakeFirst();
  if (!found) throw new NotFound(stockistMessages.unknown);
  return found;
}

/** A member may read their own stockist (named by its id or their uuid); admins and finance read every one. */
async function selfStockistOrAdmin(request: FastifyRequest) {
  const account = await authenticate(request);
  const app = request.server;
  const stockistRow = await stockistOfPath(app, (request.params as { id: string }).id);
  if (account.kind === 'member' && stockistRow.member_id !== account.id) throw new Forbidden(stockistMessages.notYours);
  return stockistRow;
}

function orderFields(fields: Record<string, string>) {
  const order = parseFormFields(purchaseOrderBody, fields);
  return {
    pickupType: order.pickup_type,
    lines: order.products,
    totalPriceKobo: order.total_price === null ? null : Math.round(order.total_price * 100),
    totalPoints: order.total_points,
    totalQuantity: order.total_quantity,
  };
}

/**
 * Stockists, stock, pick-up orders and product claims (BUSINESS-RULES.md §5; seed 002 §7
 * "Stockists", "Product purchases", "Product claims"). Members act on their own records only;
 * finance staff read, admins decide.
 */
export const stockistRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['stockists'];

  // ---- stockist accounts ----
  /** The caller's own stockist record, checked before the body is read (guards run before validation). */
  async function requireOwnStockist(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await requireMember(request, reply);
    const ref = String((request.params as { id?: unknown }).id ?? '');
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref)) throw new NotFound(stockistMessages.unknown);
    await ownStockist(app.db, ref, request.account!.id);
  }

  /** Only an approved stockist looks orders up by code. */
  async function requireApprovedStockist(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await requireMember(request, reply);
    if (!(await approvedStockistOf(app.db, request.account!.id))) throw new Forbidden(stockistMessages.notAStockist);
  }

  // The signee may be named by e-mail (seed 000 §5), so an application answers whether an address
  // belongs to a member: a few applications an hour per account keep that from being a lookup service.
  app.post('/stockists/create', { preHandler: requireMember, config: { rateLimit: { max: STOCKIST_APPLICATIONS_PER_HOUR, timeWindow: '1 hour', keyGenerator: (request: FastifyRequest) => `stockist-application:${request.account?.id ?? request.ip}` } }, schema: { tags, consumes: ['multipart/form-data', 'application/json'], response: { 200: envelope(stockist) } } }, async (request) => {
    const form = await readForm(request);
    const fields = parseFormFields(stockistApplicationFields, form.fields);
    const receiptPath = await receiptOf(app, form.files, true);
    const id = await withReceipt(app, receiptPath, () =>
      applyForStockist(app.commands, { memberId: request.account!.id, store: fields, packageId: fields.package_id, signee: fields.referrer, receiptPath }, requestMetadata(request, app.clock())));
    return ok('Stockist registration submitted successfully; it awaits approval.', (await findStockist(app.db, id))!);
  });

  app.get('/stockists/all', { preHandler: requireSignedIn, schema: { tags, querystring: pageQuery, response: { 200: envelope(z.union([pagedStockists, pagedPublicStockists])) } } }, async (request) => {
    if (request.account!.kind === 'admin') return ok('Stockists', await pageStockists(app.db, request.query.page, request.query.type));
    return ok('Stockists', await pagePublicStockists(app.db, request.query.page, undefined));
  });

  app.get('/stockists/search', { preHandler: requireSignedIn, schema: { tags, querystring: z.object({ page, search: z.string().max(100).optional() }), response: { 200: envelope(pagedPublicStockists) } } }, async (request) =>
    ok('Stockists', await pagePublicStockists(app.db, request.query.page, request.query.search)));

  app.get('/stockists/:id/single', { preHandler: requireSignedIn, schema: { tags, params: stockistParams, response: { 200: envelope(stockist) } } }, async (request) => {
    const found = await findStockist(app.db, request.params.id);
    if (!found) throw new NotFound(stockistMessages.unknown);
    if (request.account!.kind === 'member' && found.user_uuid !== request.account!.id) throw new Forbidden(stockistMessages.notYours);
    return ok('Stockist', found);
  });

  app.get('/stockists/user/:id/single', { preHandler: requireSelfOrAdmin('id'), schema: { tags, params: memberParams, response: { 200: envelope(stockist.nullable()) } } }, async (request) =>
    ok('Stockist', await stockistOfMember(app.db, request.params.id)));

  app.put('/stockists/:id/update', { preHandler: requireOwnStockist, schema: { tags, params: stockistParams, body: stockistUpdateBody, response: { 200: envelope(stockist) } } }, async (request) => {
    const id = await updateStore(app.commands, { stockistRef: request.params.id, memberId: request.account!.id, store: request.body }, requestMetadata(request, app.clock()));
    return ok('data updated successfully', (await findStockist(app.db, id))!);
  });

  app.get(
    '/stockists/package/:id/difference',
    { preHandler: requireMember, schema: { tags, params: z.object({ id: z.coerce.number().int().min(0, { error: 'Choose a stockist package.' }) }), querystring: z.object({ is_upgrade_pickup: z.string().optional() }), response: { 200: envelope(stockistPackageDifference) } } },
    async (request) => {
      const own = await approvedStockistOf(app.db, request.account!.id);
      if (!own) throw new Forbidden(stockistMessages.notAStockist);
      const packages = await app.db.selectFrom('stockist_packages').selectAll().execute();
      const summary = (p: (typeof packages)[number]) => ({ id: p.id, name: p.name, registration_value: koboToNaira(Number(p.registration_value)), pickup_amount: koboToNaira(Number(p.pickup_amount)), sales_bonus_percentage: Number(p.sales_bonus_percentage) });
      if (['1', 'true'].includes(request.query.is_upgrade_pickup ?? '')) {
        const upgrade = await app.db.selectFrom('stockist_payments').select(['from_package_id', 'package_id']).where('stockist_id', '=', own.id).where('kind', '=', 'upgrade').where('status', '=', 'approved').orderBy('decided_at', 'desc').executeTakeFirst();
        if (!upgrade) throw new RuleViolation(stockistMessages.noUpgradePickup);
        const allowance = await stockAllowance(app.db, own, 'upgrade_pickup', app.clock());
        const from = packages.find((p) => p.id === upgrade.from_package_id)!;
        const to = packages.find((p) => p.id === upgrade.package_id)!;
        return ok('Package difference', {
          package_name: to.name, package_difference: koboToNaira(allowance.allowanceKobo), rebate: Number(to.sales_bonus_percentage), current_package: summary(from), new_package: summary(to),
          pickup_allowance: koboToNaira(allowance.allowanceKobo), pickup_used: allowance.used,
        });
      }
      const current = packages.find((p) => p.id === own.package_id);
      const target = packages.find((p) => p.id === request.params.id);
      if (!current || !target) throw new RuleViolation(stockistMessages.packageInvalid, 'package_id');
      if (target.id <= current.id || Number(target.registration_value) <= Number(current.registration_value)) throw new RuleViolation(stockistMessages.upgradeNotHigher, 'package_id');
      return ok('Package difference', {
        package_name: target.name, package_difference: koboToNaira(Number(target.registration_value) - Number(current.registration_value)), rebate: Number(target.sales_bonus_percentage),
        current_package: summary(current), new_package: summary(target),
      });
    },
  );

  app.post('/stockists/:id/upgrade', { preHandler: requireOwnStockist, schema: { tags, params: stockistParams, consumes: ['multipart/form-data'], response: { 200: envelope(stockist) } } }, async (request) => {
    const form = await readForm(request);
    const fields = parseFormFields(stockistUpgradeFields, form.fields);
    const receiptPath = await receiptOf(app, form.files, true);
    await withReceipt(app, receiptPath, () =>
      requestUpgrade(app.commands, { stockistRef: request.params.id, memberId: request.account!.id, toPackageId: fields.stockist_package_id, receiptPath }, requestMetadata(request, app.clock())));
    return ok('Payment reciept uploaded successfuly', (await stockistOfMember(app.db, request.account!.id))!);
  });

  for (const [action, kind, decision, message] of [
    ['approve-registration', 'registration', 'approve', 'Stockist approved successfully'],
    ['disapprove-registration', 'registration', 'disapprove', 'Stockist disapproved successfully'],
    ['approve-upgrade', 'upgrade', 'approve', 'Stockist upgrade approved successfully'],
    ['disapprove-upgrade', 'upgrade', 'disapprove', 'Stockist upgrade disapproved successfully'],
  ] as const) {
    app.patch(`/stockists/:id/${action}`, { preHandler: requireAdmin('write'), schema: { tags, params: stockistParams, body: decisionBody, response: { 200: envelope(stockist) } } }, async (request) => {
      const metadata = requestMetadata(request, app.clock());
      const reason = request.body?.reason?.trim() || 'Disapproved by an administrator.';
      const outcome = decision === 'approve' ? { type: 'approve' as const } : { type: 'disapprove' as const, reason };
      let stockistId: string;
      if (kind === 'registration') stockistId = await decideApplication(app.commands, request.params.id, outcome, metadata);
      else {
        const paymentId = await decideUpgrade(app.commands, request.params.id, outcome, metadata);
        stockistId = (await app.db.selectFrom('stockist_payments').select('stockist_id').where('id', '=', paymentId).executeTakeFirstOrThrow()).stockist_id;
      }
      return ok(message, (await findStockist(app.db, stockistId))!);
    });
  }

  app.get('/stockists/upgrades', { preHandler: requireAdmin('read'), schema: { tags, querystring: pageQuery, response: { 200: envelope(pagedStockistUpgrades) } } }, async (request) =>
    ok('Stockist upgrades', await pageUpgrades(app.db, request.query.page, request.query.status ?? request.query.type)));

  app.get('/payments/:id/stockist-upgrade-history', { preHandler: requireSelfOrAdmin('id'), schema: { tags, params: memberParams, response: { 200: envelope(z.array(stockistUpgradeHistoryRow)) } } }, async (request) =>
    ok('Stockist upgrade history', await upgradeHistory(app.db, request.params.id)));

  // ---- the stockist record ----
  app.get('/stockists/:id/stats', { schema: { tags, params: stockistParams, response: { 200: envelope(stockistStatsShape) } } }, async (request) =>
    ok('Stockist stats', await stockistStats(app.db, await selfStockistOrAdmin(request))));

  app.get('/stockists/:id/stock', { schema: { tags, params: stockistParams, response: { 200: envelope(z.array(stockRecord)) } } }, async (request) =>
    ok('Stock', await stockOf(app.db, (await selfStockistOrAdmin(request)).id)));

  app.get('/stockists/:id/rebate-earnings', { schema: { tags, params: stockistParams, response: { 200: envelope(z.array(rebateEarning)) } } }, async (request) =>
    ok('Rebate earnings', await rebateEarnings(app.db, (await selfStockistOrAdmin(request)).member_id)));

  app.get('/stockists/:id/sales-stats', { schema: { tags, params: stockistParams, response: { 200: envelope(stockistSalesStatsShape) } } }, async (request) =>
    ok('Stockist sales stats', await stockistSalesStats(app.db, (await selfStockistOrAdmin(request)).id)));

  app.get('/stockists/stats', { preHandler: requireAdmin('read'), schema: { tags, response: { 200: envelope(adminStockistStats) } } }, async () => ok('Stockist stats', await adminStats(app.db)));

  app.get('/stockists/product-orders', { preHandler: requireAdmin('read'), schema: { tags, querystring: pageQuery, response: { 200: envelope(pagedStockPurchases) } } }, async (request) =>
    ok('Stockist purchases', await pageStockPurchases(app.db, request.query.page, { status: request.query.status ?? request.query.type })));

  // ---- stock purchases ----
  app.post('/product-purchases/stockist/:id', { preHandler: requireSelfOrAdmin('id'), schema: { tags, params: memberParams, consumes: ['multipart/form-data', 'application/json'] } }, async (request) => {
    if (request.account!.kind !== 'member') throw new Forbidden('This is for members only.');
    const form = await readForm(request);
    const pickupType = parseFormFields(z.object({ pickup_type: stockPickupType }), form.fields).pickup_type;
    const order = orderFields({ ...form.fields, pickup_type: 'repurchase_pickup' });
    const receiptPath = await receiptOf(app, form.files, false);
    const id = await withReceipt(app, receiptPath, () =>
      requestStockPurchase(app.commands, { memberId: request.account!.id, pickupType, lines: order.lines, totals: order, receiptPath, now: app.clock() }, requestMetadata(request, app.clock())));
    const stockistRow = await approvedStockistOf(app.db, request.account!.id);
    const listed = await pageStockPurchases(app.db, 1, { stockistId: stockistRow!.id });
    return ok('Stock purchase submitted successfully; it awaits approval.', listed.data.find((p) => p.id === id) ?? null);
  });

  app.get('/product-purchases/stockist/:id/history', { schema: { tags, params: stockistParams, querystring: pageQuery, response: { 200: envelope(pagedStockPurchases) } } }, async (request) =>
    ok('Stock purchases', await pageStockPurchases(app.db, request.query.page, { stockistId: (await selfStockistOrAdmin(request)).id })));

  // Whether the stock registration and upgrade pick-ups are taken, as placeStockPurchase decides it.
  app.get('/product-purchases/stockist/:id/pickup-status', { schema: { tags, params: stockistParams, response: { 200: envelope(pickupStatus) } } }, async (request) =>
    ok('Pick-up status', await stockPickupStatus(app.db, await selfStockistOrAdmin(request), app.clock())));

  app.get('/product-purchases/:id/stock-details', { schema: { tags, params: stockistParams, response: { 200: envelope(z.array(stockDetail)) } } }, async (request) =>
    ok('Stock details', await stockDetails(app.db, (await selfStockistOrAdmin(request)).id)));

  app.get('/product-purchases/stockist-prev-month-sales/:id', { schema: { tags, params: stockistParams, response: { 200: envelope(prevMonthSalesShape) } } }, async (request) =>
    ok('Previous month sales', await prevMonthSales(app.db, (await selfStockistOrAdmin(request)).id, app.clock())));

  for (const [action, decision, message] of [['approve-stock', 'approve', 'Stock purchase approved successfully'], ['disapprove-stock', 'decline', 'Stock purchase declined successfully']] as const) {
    app.patch(`/product-purchases/:id/${action}`, { preHandler: requireAdmin('write'), schema: { tags, params: stockPurchaseParams, body: decisionBody } }, async (request) => {
      const reason = request.body?.reason?.trim() || 'Declined by an administrator.';
      await decideStockPurchase(app.commands, request.params.id, decision === 'approve' ? { type: 'approve' } : { type: 'decline', reason }, requestMetadata(request, app.clock()));
      const row = await app.db.selectFrom('stock_purchases').select(['id', 'status']).where('id', '=', request.params.id).executeTakeFirstOrThrow();
      return ok(message, row);
    });
  }

  // ---- members' orders ----
  app.post('/product-purchases/user/:id', { preHandler: requireSelfOrAdmin('id'), schema: { tags, params: memberParams } }, async (request) => {
    if (request.account!.kind !== 'member') throw new Forbidden('This is for members only.');
    const order = orderFields(((request.body ?? {}) as Record<string, unknown>) as Record<string, string>);
    const placed = await placeAllowancePurchase(app.commands, { memberId: request.account!.id, order }, requestMetadata(request, app.clock()));
    return ok('Order placed successfully', { purchase_id: placed.purchaseId, total_price: koboToNaira(placed.priced.totalPriceKobo) });
  });

  app.post(
    '/product-purchases/order-code',
    { preHandler: requireMember, config: { rateLimit: { max: 10, timeWindow: '15 minutes', keyGenerator: (request: FastifyRequest) => `order-code:${request.ip}:${request.account?.id ?? ''}` } }, schema: { tags, body: orderCodeBody, response: { 200: envelope(z.object({ order_code: z.string(), order_id: z.string() })) } } },
    async (request) => {
      const account = request.account!;
      const member = await findMember(app.db, account.id);
      if (!member) throw new NotFound('Member not found.');
      // The password asked again is a guess like a sign-in: under the same per-account lock (auth/reauthenticate.ts).
      if (!(await reauthenticate(app, { kind: 'member', id: member.id, email: member.email, name: member.first_name }, request.body.password))) throw new RuleViolation(purchaseMessages.passwordWrong, 'password');
      const order = await app.db.selectFrom('product_purchases').select(['id', 'member_id', 'order_code', 'status']).where('id', '=', request.body.order_id).executeTakeFirst();
      if (!order || order.member_id !== account.id) throw new NotFound(purchaseMessages.unknown);
      if (!order.order_code || !['processing', 'approved'].includes(order.status)) throw new RuleViolation(purchaseMessages.notPaidYet);
      return ok('Order code', { order_code: order.order_code, order_id: order.id });
    },
  );

  app.get('/product-purchases/:id/order-details', { preHandler: requireSignedIn, schema: { tags, params: purchaseParams, response: { 200: envelope(orderDetailsShape) } } }, async (request) => {
    const found = await orderDetails(app.db, request.params.id);
    if (!found) throw new NotFound(purchaseMessages.unknown);
    const account = request.account!;
    if (account.kind === 'member' && found.owner !== account.id) {
      const own = await approvedStockistOf(app.db, account.id);
      if (!own || own.id !== found.stockistId) throw new Forbidden('You may only see your own orders.');
    }
    return ok('Order details', found.data);
  });

  // The code is what lets an order out of the door: lookups are rate-limited per stockist, so codes cannot be guessed.
  app.get('/product-purchases/fetch-order/:id', { preHandler: requireApprovedStockist, config: { rateLimit: { max: 60, timeWindow: '15 minutes', keyGenerator: (request: FastifyRequest) => `fetch-order:${request.account?.id ?? request.ip}` } }, schema: { tags, params: z.object({ id: z.string().trim().min(1, { error: purchaseMessages.orderCodeUnknown }).max(20, { error: purchaseMessages.orderCodeUnknown }) }), response: { 200: envelope(orderLookup) } } }, async (request) => {
    const own = await approvedStockistOf(app.db, request.account!.id);
    if (!own) throw new Forbidden(stockistMessages.notAStockist);
    const found = await lookupOrder(app.db, request.params.id, own.id);
    if (!found) throw new NotFound(purchaseMessages.orderCodeUnknown);
    return ok('Order details', found);
  });

  app.patch('/product-purchases/:id/vendor-approve', { preHandler: requireMember, schema: { tags, params: purchaseParams } }, async (request) => {
    await collectOrder(app.commands, { purchaseId: request.params.id, stockistMemberId: request.account!.id }, requestMetadata(request, app.clock()));
    return ok('Order approved successfully', { purchase_id: request.params.id, status: 'approved' });
  });

  app.get('/product-purchases/vendor/:id/processed-orders', { schema: { tags, params: stockistParams, querystring: pageQuery, response: { 200: envelope(pagedProcessedOrders) } } }, async (request) =>
    ok('Processed orders', await processedOrders(app.db, (await selfStockistOrAdmin(request)).id, request.query.page)));

  // ---- product claims ----
  app.get('/product-claims/all', { preHandler: requireAdmin('read'), schema: { tags, querystring: pageQuery, response: { 200: envelope(pagedProductClaims) } } }, async (request) =>
    ok('Product claims', await pageClaims(app.db, request.query.page, { status: request.query.status ?? request.query.type })));

  app.get(
    '/product-claims/:id/claims',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags, params: memberParams, querystring: z.object({ page, processing: z.string().optional(), status: z.enum(['processing', 'approved', 'declined'], { error: 'status must be processing, approved or declined.' }).optional() }), response: { 200: envelope(pagedProductClaims) } } },
    async (request) => {
      const processingOnly = ['1', 'true'].includes(request.query.processing ?? '');
      return ok('Product claims', await pageClaims(app.db, request.query.page, { memberId: request.params.id, status: processingOnly ? 'processing' : request.query.status }));
    },
  );

  app.get('/product-claims/total-product-sold', { preHandler: requireAdmin('read'), schema: { tags, response: { 200: envelope(z.object({ total_product_sold: z.number() })) } } }, async () =>
    ok('Total product sold', { total_product_sold: (await claimTotals(app.db)).quantity }));

  app.get('/product-claims/sum-claimed-products', { preHandler: requireAdmin('read'), schema: { tags, response: { 200: envelope(z.object({ sum_claimed_products: z.number() })) } } }, async () =>
    ok('Sum of claimed products', { sum_claimed_products: koboToNaira((await claimTotals(app.db)).valueKobo) }));

  app.post('/product-claims/:id/create', { preHandler: requireSelfOrAdmin('id'), schema: { tags, params: memberParams } }, async (request) => {
    if (request.account!.kind !== 'member') throw new Forbidden('This is for members only.');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields = Array.isArray(body) ? { products: body } : body;
    // The claim is an allowance pick-up: the registration one first, then the latest upgrade's.
    const registrationUsed = await app.db.selectFrom('unique_keys').select('key').where('scope', '=', 'registration-pickup').where('key', '=', request.account!.id).executeTakeFirst();
    const order = orderFields({ pickup_type: registrationUsed ? 'upgrade_pickup' : 'registration_pickup', ...(fields as Record<string, string>) });
    const placed = await placeAllowancePurchase(app.commands, { memberId: request.account!.id, order }, requestMetadata(request, app.clock()));
    return ok('Product claimed successfully', { purchase_id: placed.purchaseId, total_price: koboToNaira(placed.priced.totalPriceKobo) });
  });

  for (const [action, message] of [['approve', 'Product approved successfully'], ['decline', 'Product declined successfully']] as const) {
    app.put(`/product-claims/:id/${action}`, { preHandler: requireAdmin('write'), schema: { tags, params: purchaseParams, body: decisionBody } }, async (request) => {
      const metadata = requestMetadata(request, app.clock());
      if (action === 'approve') await approveClaim(app.commands, request.params.id, metadata);
      else await declineClaim(app.commands, request.params.id, request.body?.reason?.trim() || 'Declined by an administrator.', metadata);
      const row = await app.db.selectFrom('product_purchases').select(['id', 'status']).where('id', '=', request.params.id).executeTakeFirstOrThrow();
      return ok(message, row);
    });
  }
};
