import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requireSelfOrAdmin } from '../auth/guards';
import type { BonusKind } from './events';
import { bonusPage, bonusStats, bonusTotal, heldBonuses, walletOf } from './queries';
import { pageNumber } from '../contracts/fields';

const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });

/** A member's bonus figures (seed 000 §7 "Bonuses"): each path answers `{ bonus }` in naira. */
const singleKindPaths: Array<[string, BonusKind[], string]> = [
  ['welcome-bonus', ['welcome'], 'Welcome bonus'],
  ['referral-bonus', ['referral'], 'Referral bonus'],
  ['placement-bonus', ['placement'], 'Placement bonus'],
  ['equilibrum-bonus', ['equilibrium'], 'Equilibrium bonus'],
  ['loyalty-bonus', ['loyalty'], 'Loyalty bonus'],
  ['global-profit', ['global_profit'], 'Global profit'],
];

export const compensationRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const [path, kinds, message] of singleKindPaths) {
    app.get(`/bonuses/:id/${path}`, { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams } }, async (request) => ({
      success: true,
      message,
      data: { bonus: await bonusTotal(app.db, request.params.id, kinds) },
    }));
  }

  app.get('/bonuses/:id/profit-pool', { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams } }, async (request) => ({
    success: true,
    message: 'Profit pool',
    data: { profit_pool: await bonusTotal(app.db, request.params.id, ['profit_pool']) },
  }));

  app.get('/bonuses/:id/total-bonus', { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams } }, async (request) => ({
    success: true,
    message: 'Total bonus',
    data: { bonus: await bonusTotal(app.db, request.params.id) },
  }));

  app.get('/bonuses/:id/wallet-balance', { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams } }, async (request) => {
    const wallet = await walletOf(app.db, request.params.id);
    return { success: true, message: 'Wallet balance', data: wallet };
  });

  app.get('/bonuses/:id/held-bonuses', { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams } }, async (request) => ({
    success: true,
    message: 'Held bonuses',
    data: await heldBonuses(app.db, request.params.id),
  }));

  app.get('/bonuses/:id/bonus-stats', { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams } }, async (request) => ({
    success: true,
    message: 'Bonus stats',
    data: await bonusStats(app.db, request.params.id, app.clock()),
  }));

  app.get(
    '/wallet/:id/bonuses',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams, querystring: z.object({ page: pageNumber }) } },
    async (request) => ({ success: true, message: 'Bonuses', data: await bonusPage(app.db, request.params.id, request.query.page) }),
  );
};
