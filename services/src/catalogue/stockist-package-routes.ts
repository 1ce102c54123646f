import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { requireAdmin, requireSignedIn } from '../auth/guards';
import { catalogueMessages, idParams, stockistPackage, stockistPackageCreateBody, stockistPackageUpdateBody } from '../contracts/catalogue';
import { envelope } from '../contracts/http';
import { runInTransaction } from '../core/command';
import { NotFound } from '../core/errors';
import { stockistPackageChanges, stockistPackageFields } from './entry-fields';
import { defineEntry, updateEntry } from './commands';
import { catalogueKinds, notFoundMessage } from './kinds';
import { findStockistPackage, listStockistPackages } from './queries';


/** Stockist packages: members choose one when they apply to become a stockist. */
export const stockistPackageRoutes: FastifyPluginAsyncZod = async (app) => {
  const kind = catalogueKinds.stockistPackage;

  app.get('/stockist-packages/all', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], response: { 200: envelope(z.array(stockistPackage)) } } }, async () => ({
    success: true,
    message: 'Stockist packages',
    data: await listStockistPackages(app.db),
  }));

  app.get(
    '/stockist-packages/:id/single',
    { preHandler: requireSignedIn, schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(stockistPackage) } } },
    async (request) => {
      const found = await findStockistPackage(app.db, request.params.id);
      if (!found) throw new NotFound(notFoundMessage(kind));
      return { success: true, message: 'Stockist package', data: found };
    },
  );

  app.post(
    '/stockist-packages/create',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], body: stockistPackageCreateBody, response: { 200: envelope(stockistPackage) } } },
    async (request) => {
      const body = request.body;
      const fields = stockistPackageFields(body);
      const metadata = requestMetadata(request, app.clock());
      const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, kind, fields, metadata));
      return { success: true, message: catalogueMessages.stockistPackageCreated, data: (await findStockistPackage(app.db, id))! };
    },
  );

  app.put(
    '/stockist-packages/:id/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, body: stockistPackageUpdateBody, response: { 200: envelope(stockistPackage) } } },
    async (request) => {
      const body = request.body;
      const changes = stockistPackageChanges(body);
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateEntry(trx, kind, request.params.id, changes, metadata));
      return { success: true, message: catalogueMessages.stockistPackageUpdated, data: (await findStockistPackage(app.db, request.params.id))! };
    },
  );
};
