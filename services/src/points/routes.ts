import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requireAdmin, requireSelfOrAdmin } from '../auth/guards';
import { envelope } from '../contracts/http';
import { pointsMessages, totalPv } from '../contracts/points';
import { totalPvOf, totalRegistrationPv } from './queries';

const memberParams = z.object({ id: z.uuid({ error: pointsMessages.memberNotFound }) });

/** A member's PV, CPV, leg volumes and rank (their own, or any member's for admins), and the admin total. */
export const pointsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/:id/total-pv',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['points'], params: memberParams, response: { 200: envelope(totalPv) } } },
    async (request) => ({ success: true, message: pointsMessages.totalPv, data: await totalPvOf(app.db, request.params.id) }),
  );

  app.get(
    '/users/total-registration-pv',
    { preHandler: requireAdmin('read'), schema: { tags: ['users'], response: { 200: envelope(z.number()) } } },
    async () => ({ success: true, message: pointsMessages.totalRegistrationPv, data: await totalRegistrationPv(app.db) }),
  );
};
