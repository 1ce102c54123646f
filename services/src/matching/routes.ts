import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { requireMember } from '../auth/guards';
import { envelope } from '../contracts/http';
import { matchingStatus as matchingStatusShape } from '../contracts/matching';
import { matchingStatus } from './queries';

/** The member's own matching explanation (issue 14 item 3): standing legs, pairs now, last result, next close. */
export const matchingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/bonuses/matching-status',
    { preHandler: requireMember, schema: { tags: ['bonuses'], response: { 200: envelope(matchingStatusShape) } } },
    async (request) => ({ success: true, message: 'Matching status', data: await matchingStatus(app.db, request.account!.id, app.clock()) }),
  );
};
