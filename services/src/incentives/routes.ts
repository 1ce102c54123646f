import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { requireAdmin, requireMember, requireSelfOrAdmin } from '../auth/guards';
import { envelope } from '../contracts/http';
import { adminIncentiveClaim, claimDecisionBody, claimIncentiveBody, currentIncentive as currentIncentiveShape, incentiveClaimsQuery, memberIncentiveClaim, pagedIncentiveClaims } from '../contracts/incentives';
import { NotFound } from '../core/errors';
import { claimIncentive, decideIncentiveClaim } from './commands';
import { incentiveMessages } from './decider';
import { currentIncentive, findClaim, memberClaims, pageClaims } from './queries';

const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });
const claimParams = z.object({ id: z.uuid({ error: incentiveMessages.claimNotFound }) });

/**
 * Incentive claims (BUSINESS-RULES.md §3 "Ranks and incentives"; seed 000 §2.5, §7; seed 002
 * "Incentive Requests"). Members read and claim under their own id; admins list, approve and
 * decline by the claim's id; finance staff read only.
 */
export const incentiveRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/incentive-claims/all',
    { preHandler: requireAdmin('read'), schema: { tags: ['incentives'], querystring: incentiveClaimsQuery, response: { 200: envelope(pagedIncentiveClaims) } } },
    async (request) => ({ success: true, message: 'Incentive claims', data: await pageClaims(app.db, request.query.status, request.query.page) }),
  );

  app.get(
    '/incentive-claims/:id/claims',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['incentives'], params: memberParams, response: { 200: envelope(z.array(memberIncentiveClaim)) } } },
    async (request) => ({ success: true, message: 'Incentive claims', data: await memberClaims(app.db, request.params.id) }),
  );

  app.get(
    '/incentive-claims/:id/current-incentive',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['incentives'], params: memberParams, response: { 200: envelope(currentIncentiveShape) } } },
    async (request) => ({ success: true, message: 'Current incentive', data: await currentIncentive(app.db, request.params.id) }),
  );

  app.post(
    '/incentive-claims/:id/create',
    {
      preHandler: [requireMember, requireSelfOrAdmin('id')],
      schema: { tags: ['incentives'], params: memberParams, body: claimIncentiveBody, response: { 200: envelope(memberIncentiveClaim) } },
    },
    async (request) => {
      const claimId = randomUUID();
      await claimIncentive(
        app.commands,
        { claimId, memberId: request.params.id, rankId: request.body.rank_id, incentiveId: request.body.incentive_id },
        requestMetadata(request, app.clock()),
      );
      const claim = await findClaim(app.db, claimId);
      if (!claim) throw new NotFound(incentiveMessages.claimNotFound);
      return { success: true, message: incentiveMessages.claimed, data: memberIncentiveClaim.parse(claim) };
    },
  );

  for (const [action, message] of [
    ['approve', incentiveMessages.approved],
    ['decline', incentiveMessages.declined],
  ] as const) {
    app.put(
      `/incentive-claims/:id/${action}`,
      { preHandler: requireAdmin('write'), schema: { tags: ['incentives'], params: claimParams, body: claimDecisionBody, response: { 200: envelope(adminIncentiveClaim) } } },
      async (request) => {
        const decision = action === 'approve' ? ({ type: 'approve' } as const) : ({ type: 'decline', reason: request.body?.reason } as const);
        await decideIncentiveClaim(app.commands, request.params.id, decision, requestMetadata(request, app.clock()));
        const claim = await findClaim(app.db, request.params.id);
        if (!claim) throw new NotFound(incentiveMessages.claimNotFound);
        return { success: true, message, data: claim };
      },
    );
  }
};
