import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requireSelfOrAdmin } from '../auth/guards';
import { envelope } from '../contracts/http';
import { pagedProductPurchases, pickupStatus } from '../contracts/purchases';
import { NotFound } from '../core/errors';
import { pickupStatusOf } from './commands';
import { purchaseHistory } from './queries';
import { pageNumber } from '../contracts/fields';

const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });
const pageQuery = z.object({ page: pageNumber });

/**
 * Product purchases. A repurchase is placed and paid through POST /payments/initiate or PATCH
 * /withdrawals/pay-with-wallet (txn_source member_product_purchase: payments/routes.ts).
 */
export const purchaseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/product-purchases/user/:id/history',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['purchases'], params: memberParams, querystring: pageQuery, response: { 200: envelope(pagedProductPurchases) } } },
    async (request) => ({ success: true, message: 'Purchase history', data: await purchaseHistory(app.db, request.params.id, request.query.page) }),
  );

  // Whether the registration and upgrade pick-ups are taken, as placeAllowancePurchase decides it:
  // the order page offers only the pick-ups the server would accept (not read from a history page).
  app.get(
    '/product-purchases/user/:id/pickup-status',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['purchases'], params: memberParams, response: { 200: envelope(pickupStatus) } } },
    async (request) => {
      const member = await app.db.selectFrom('members').select('id').where('id', '=', request.params.id).executeTakeFirst();
      if (!member) throw new NotFound('Member not found.');
      return { success: true, message: 'Pick-up status', data: await pickupStatusOf(app.db, member.id) };
    },
  );
};
