import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { parseListRequest, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import {
  adminPackagePayment,
  approvalsMessages,
  approvalsQuery,
  packageUpgrade,
  packageUpgradesPage,
  paidRegistration,
  paidRegistrationsPage,
} from '../contracts/approvals';
import { envelope } from '../contracts/http';
import { NotFound } from '../core/errors';
import { koboToNaira } from '../core/money';
import {
  countPaidRegistrations,
  countRegistrations,
  findAdminPackagePayment,
  findRegistration,
  findUpgrade,
  listPackagePayments,
  listRegistrations,
  listUpgrades,
  packagePaymentsResource,
  registrationsResource,
  sumPaidRegistrationsKobo,
  upgradesResource,
} from './admin-queries';
import { PAGE_SIZE } from './queries';

const adminRead = { preHandler: requireAdmin('read') };
const idParams = z.object({ id: z.string().max(100) });

/**
 * The back office's registration and upgrade payments (API.md §2; seed 002 "Transactions screen",
 * Registration History): resources `package-payments`, `registrations` and `upgrades` for
 * react-admin, and the portal catalogue's paid-user reads under /users (seed 002 §7). Approve and
 * decline stay the catalogue's own command paths (PATCH /payments/package-payments/{id}/approve,
 * /disapprove in routes.ts), which record the events.
 */
export const paymentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  // ── ra-data-simple-rest resources ─────────────────────────────────────────────────────────
  app.get(
    '/admin/package-payments',
    { ...adminRead, schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(adminPackagePayment) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, packagePaymentsResource);
      const { rows, total } = await listPackagePayments(app.db, list);
      return sendList(reply, 'package-payments', list, rows, total);
    },
  );
  app.get(
    '/admin/package-payments/:id',
    { ...adminRead, schema: { tags: ['admin'], params: idParams, response: { 200: adminPackagePayment } } },
    async (request) => {
      const payment = await findAdminPackagePayment(app.db, request.params.id);
      if (!payment) throw new NotFound(approvalsMessages.paymentNotFound);
      return payment;
    },
  );

  app.get(
    '/admin/registrations',
    { ...adminRead, schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(paidRegistration) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, registrationsResource);
      const { rows, total } = await listRegistrations(app.db, list);
      return sendList(reply, 'registrations', list, rows, total);
    },
  );
  app.get(
    '/admin/registrations/:id',
    { ...adminRead, schema: { tags: ['admin'], params: idParams, response: { 200: paidRegistration } } },
    async (request) => {
      const registration = await findRegistration(app.db, request.params.id);
      if (!registration) throw new NotFound(approvalsMessages.registrationNotFound);
      return registration;
    },
  );

  app.get(
    '/admin/upgrades',
    { ...adminRead, schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(packageUpgrade) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, upgradesResource);
      const { rows, total } = await listUpgrades(app.db, list);
      return sendList(reply, 'upgrades', list, rows, total);
    },
  );
  app.get(
    '/admin/upgrades/:id',
    { ...adminRead, schema: { tags: ['admin'], params: idParams, response: { 200: packageUpgrade } } },
    async (request) => {
      const upgrade = await findUpgrade(app.db, request.params.id);
      if (!upgrade) throw new NotFound(approvalsMessages.upgradeNotFound);
      return upgrade;
    },
  );

  // ── The portal catalogue (seed 002 §7, Users): paged like the other portal lists ──────────
  /** A catalogue page as a list request: newest first, optionally searched. */
  const pageRequest = (resource: Parameters<typeof parseListRequest>[1], page: number, search = '') =>
    parseListRequest(
      { sort: JSON.stringify(['created_at', 'DESC']), range: JSON.stringify([(page - 1) * PAGE_SIZE, page * PAGE_SIZE - 1]), filter: JSON.stringify(search ? { q: search } : {}) },
      resource,
    );
  const paged = <T>(rows: T[], total: number, page: number) => ({
    data: rows,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    per_page: PAGE_SIZE,
    total,
  });

  app.get(
    '/users/total-registrations',
    { ...adminRead, schema: { tags: ['users'], response: { 200: envelope(z.number()) } } },
    async () => ({ success: true, message: approvalsMessages.totalRegistrations, data: await countRegistrations(app.db) }),
  );

  app.get(
    '/users/total-paid-users',
    { ...adminRead, schema: { tags: ['users'], response: { 200: envelope(z.number()) } } },
    async () => ({ success: true, message: approvalsMessages.totalPaidUsers, data: await countPaidRegistrations(app.db) }),
  );

  app.get(
    '/users/sum-paid-users',
    { ...adminRead, schema: { tags: ['users'], response: { 200: envelope(z.number()) } } },
    async () => ({ success: true, message: approvalsMessages.sumPaidUsers, data: koboToNaira(await sumPaidRegistrationsKobo(app.db)) }),
  );

  app.get(
    '/users/paid-users',
    { ...adminRead, schema: { tags: ['users'], querystring: approvalsQuery.page, response: { 200: envelope(paidRegistrationsPage) } } },
    async (request) => {
      const { page } = request.query;
      const { rows, total } = await listRegistrations(app.db, pageRequest(registrationsResource, page));
      return { success: true, message: total ? approvalsMessages.paidUsers : approvalsMessages.noPaidUsers, data: paged(rows, total, page) };
    },
  );

  app.get(
    '/users/search-paid-users',
    { ...adminRead, schema: { tags: ['users'], querystring: approvalsQuery.search, response: { 200: envelope(paidRegistrationsPage) } } },
    async (request) => {
      const { page, search } = request.query;
      const { rows, total } = await listRegistrations(app.db, pageRequest(registrationsResource, page, search));
      return { success: true, message: total ? approvalsMessages.paidUsers : approvalsMessages.noPaidUsers, data: paged(rows, total, page) };
    },
  );

  app.get(
    '/users/upgraded-users',
    { ...adminRead, schema: { tags: ['users'], querystring: approvalsQuery.search, response: { 200: envelope(packageUpgradesPage) } } },
    async (request) => {
      const { page, search } = request.query;
      const { rows, total } = await listUpgrades(app.db, pageRequest(upgradesResource, page, search));
      return { success: true, message: total ? approvalsMessages.upgradedUsers : approvalsMessages.noUpgradedUsers, data: paged(rows, total, page) };
    },
  );
};
