import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requireAdmin, requireSelfOrAdmin } from '../auth/guards';
import type { BonusKind } from '../compensation/events';
import { envelope } from '../contracts/http';
import { companyBonusStats as companyBonusStatsShape, companyBonusTotal as companyBonusTotalShape, pagedGlobalProfits, pagedProfitPools, sharesPageQuery, totalTypeQuery } from '../contracts/profit-sharing';
import { companyBonusStats, companyBonusTotal, globalProfitEligibleCount, globalProfitsOf, profitPoolsOf } from './queries';

const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });

/** Admin totals of seed 002 §7 "Bonuses": path, kinds, message. */
const totalPaths: Array<[string, BonusKind[], string]> = [
  ['total-equilibrum-bonus', ['equilibrium'], 'Total equilibrium bonus'],
  ['total-profit-pool-bonus', ['profit_pool'], 'Total profit pool bonus'],
  ['total-loyalty-bonus', ['loyalty'], 'Total loyalty bonus'],
  ['total-global-profit-bonus', ['global_profit'], 'Total global profit bonus'],
];

/**
 * Global profit and profit pool read paths (seed 000 §7, seed 002 §7): a member's own shares,
 * and the company's bonus totals for the admin dashboard.
 */
export const profitSharingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/bonuses/:id/global-profits',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams, querystring: sharesPageQuery, response: { 200: envelope(pagedGlobalProfits) } } },
    async (request) => ({ success: true, message: 'Global profits', data: await globalProfitsOf(app.db, request.params.id, request.query.page) }),
  );

  app.get(
    '/bonuses/:id/profit-pools',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams, querystring: sharesPageQuery, response: { 200: envelope(pagedProfitPools) } } },
    async (request) => ({ success: true, message: 'Profit pools', data: await profitPoolsOf(app.db, request.params.id, request.query.page) }),
  );

  for (const [path, kinds, message] of totalPaths) {
    app.get(
      `/bonuses/${path}`,
      { preHandler: requireAdmin('read'), schema: { tags: ['bonuses'], querystring: totalTypeQuery, response: { 200: envelope(companyBonusTotalShape) } } },
      async (request) => {
        const total = await companyBonusTotal(app.db, kinds, request.query.type, app.clock());
        const extra = kinds.includes('global_profit') ? { eligible_count: await globalProfitEligibleCount(app.db) } : kinds.includes('profit_pool') ? { profit_pool: total.bonus } : {};
        return { success: true, message, data: { ...total, ...extra } };
      },
    );
  }

  app.get(
    '/bonuses/bonus-stats',
    { preHandler: requireAdmin('read'), schema: { tags: ['bonuses'], querystring: totalTypeQuery, response: { 200: envelope(companyBonusStatsShape) } } },
    async (request) => ({ success: true, message: 'Bonus stats', data: await companyBonusStats(app.db, request.query.type, app.clock()) }),
  );
};
