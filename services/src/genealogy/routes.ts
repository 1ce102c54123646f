import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requireAdmin, requireSelfOrAdmin } from '../auth/guards';
import {
  directDownline,
  downlinesPage,
  genealogyMessages,
  genealogyNode,
  genealogyQuery,
  memberListPage as memberListPageShape,
  memberListQuery,
  memberSearchQuery,
  pageQuery,
  uplineDetails,
} from '../contracts/genealogy';
import { envelope } from '../contracts/http';
import {
  countDirectDownlines,
  countMembers,
  directDownlinesOf,
  downlinePage,
  genealogyTreeOf,
  memberListPage,
  memberNotFound,
  uplineDetailsOf,
} from './queries';

const memberParams = z.object({ id: z.uuid({ error: memberNotFound }) });
const self = { preHandler: requireSelfOrAdmin('id') };
const adminRead = { preHandler: requireAdmin('read') };

/** Genealogy (a member's own, or any member's for admins) and the admin members lists. */
export const genealogyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/:id/upline-details',
    { ...self, schema: { tags: ['genealogy'], params: memberParams, response: { 200: envelope(uplineDetails.nullable()) } } },
    async (request) => {
      const data = await uplineDetailsOf(app.db, request.params.id);
      return { success: true, message: data ? genealogyMessages.upline : genealogyMessages.noUpline, data };
    },
  );

  app.get(
    '/users/:id/direct-downlines',
    { ...self, schema: { tags: ['genealogy'], params: memberParams, response: { 200: envelope(z.array(directDownline)) } } },
    async (request) => {
      const data = await directDownlinesOf(app.db, request.params.id);
      return { success: true, message: data.length ? genealogyMessages.directDownlines : genealogyMessages.noDirectDownlines, data };
    },
  );

  app.get(
    '/users/:id/count-direct-downlines',
    { ...self, schema: { tags: ['genealogy'], params: memberParams, response: { 200: envelope(z.number()) } } },
    async (request) => ({ success: true, message: genealogyMessages.directDownlineCount, data: await countDirectDownlines(app.db, request.params.id) }),
  );

  app.get(
    '/users/:id/downlines',
    { ...self, schema: { tags: ['genealogy'], params: memberParams, querystring: pageQuery, response: { 200: envelope(downlinesPage) } } },
    async (request) => {
      const data = await downlinePage(app.db, request.params.id, request.query.page);
      return { success: true, message: data.total ? genealogyMessages.downlines : genealogyMessages.noDownlines, data };
    },
  );

  app.get(
    '/users/:id/genealogy',
    { ...self, schema: { tags: ['genealogy'], params: memberParams, querystring: genealogyQuery, response: { 200: envelope(genealogyNode) } } },
    async (request) => ({ success: true, message: genealogyMessages.genealogy, data: await genealogyTreeOf(app.db, request.params.id, request.query.depth) }),
  );

  // ── Admin members lists ─────────────────────────────────────────────────────────────────
  app.get(
    '/users/total-users',
    { ...adminRead, schema: { tags: ['users'], response: { 200: envelope(z.number()) } } },
    async () => ({ success: true, message: genealogyMessages.totalUsers, data: await countMembers(app.db, { type: 'all' }) }),
  );

  app.get(
    '/users/total-active-users',
    { ...adminRead, schema: { tags: ['users'], response: { 200: envelope(z.number()) } } },
    async () => ({ success: true, message: genealogyMessages.totalActiveUsers, data: await countMembers(app.db, { type: 'active' }) }),
  );

  app.get(
    '/users/active-users',
    { ...adminRead, schema: { tags: ['users'], querystring: pageQuery, response: { 200: envelope(memberListPageShape) } } },
    async (request) => ({ success: true, message: genealogyMessages.activeUsers, data: await memberListPage(app.db, { type: 'active' }, request.query.page) }),
  );

  app.get(
    '/users',
    { ...adminRead, schema: { tags: ['users'], querystring: memberListQuery, response: { 200: envelope(memberListPageShape) } } },
    async (request) => {
      const data = await memberListPage(app.db, { type: request.query.type }, request.query.page);
      return { success: true, message: data.total ? genealogyMessages.users : genealogyMessages.noUsers, data };
    },
  );

  app.get(
    '/users/search',
    { ...adminRead, schema: { tags: ['users'], querystring: memberSearchQuery, response: { 200: envelope(memberListPageShape) } } },
    async (request) => {
      const data = await memberListPage(app.db, { type: 'all', search: request.query.search }, request.query.page);
      return { success: true, message: data.total ? genealogyMessages.users : genealogyMessages.noUsers, data };
    },
  );
};
