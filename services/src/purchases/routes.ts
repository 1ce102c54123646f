import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requireSelfOrAdmin } from '../auth/guards';
import { envelope } from '../contracts/http';
import { pagedProductPurchases } from '../contracts/purchases';
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
};
