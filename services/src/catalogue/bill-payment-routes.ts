import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { requireAdmin, requireSignedIn } from '../auth/guards';
import {
  catalogueMessages,
  idParams,
  productService,
  productServiceCreateBody,
  productServiceQuery,
  productServiceUpdateBody,
  serviceProvider,
  serviceProviderCreateBody,
  serviceProviderUpdateBody,
} from '../contracts/catalogue';
import { envelope } from '../contracts/http';
import { runInTransaction } from '../core/command';
import { NotFound } from '../core/errors';
import { nairaToKobo } from '../core/money';
import { createProductService, defineEntry, updateEntry, updateProductService } from './commands';
import { catalogueKinds, notFoundMessage } from './kinds';
import { findProductService, findServiceProvider, listProductServices, listServiceProviders } from './queries';

/**
 * The bill-payment catalogue behind /service-providers and /product-services. The seeds give only
 * these paths, so the model is this project's (contracts/catalogue.ts): a service provider is a
 * biller (id, name, code, is_active); a product service is one thing bought from it (id,
 * service_provider_id, service such as airtime, data, electricity or cable, name, amount in
 * naira, is_active). Members read them; admins maintain them.
 */
export const billPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  // ── Service providers ──
  app.get('/service-providers', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], response: { 200: envelope(z.array(serviceProvider)) } } }, async () => ({
    success: true,
    message: 'Service providers',
    data: await listServiceProviders(app.db),
  }));

  app.get(
    '/service-providers/:id/provider',
    { preHandler: requireSignedIn, schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(serviceProvider) } } },
    async (request) => {
      const found = await findServiceProvider(app.db, request.params.id);
      if (!found) throw new NotFound(notFoundMessage(catalogueKinds.serviceProvider));
      return { success: true, message: 'Service provider', data: found };
    },
  );

  app.post(
    '/service-providers/create',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], body: serviceProviderCreateBody, response: { 200: envelope(serviceProvider) } } },
    async (request) => {
      const metadata = requestMetadata(request, app.clock());
      const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, catalogueKinds.serviceProvider, request.body, metadata));
      return { success: true, message: catalogueMessages.serviceProviderCreated, data: (await findServiceProvider(app.db, id))! };
    },
  );

  app.put(
    '/service-providers/:id/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, body: serviceProviderUpdateBody, response: { 200: envelope(serviceProvider) } } },
    async (request) => {
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateEntry(trx, catalogueKinds.serviceProvider, request.params.id, request.body, metadata));
      return { success: true, message: catalogueMessages.serviceProviderUpdated, data: (await findServiceProvider(app.db, request.params.id))! };
    },
  );

  // ── Product services ──
  app.get('/product-services', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], response: { 200: envelope(z.array(productService)) } } }, async () => ({
    success: true,
    message: 'Product services',
    data: await listProductServices(app.db),
  }));

  /** The active product services of one kind (`?service=airtime`), from active providers. */
  app.get(
    '/product-services/service',
    { preHandler: requireSignedIn, schema: { tags: ['catalogue'], querystring: productServiceQuery, response: { 200: envelope(z.array(productService)) } } },
    async (request) => ({ success: true, message: 'Product services', data: await listProductServices(app.db, { service: request.query.service }) }),
  );

  app.get(
    '/product-services/:id/service',
    { preHandler: requireSignedIn, schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(productService) } } },
    async (request) => {
      const found = await findProductService(app.db, request.params.id);
      if (!found) throw new NotFound(notFoundMessage(catalogueKinds.productService));
      return { success: true, message: 'Product service', data: found };
    },
  );

  app.post(
    '/product-services/create',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], body: productServiceCreateBody, response: { 200: envelope(productService) } } },
    async (request) => {
      const { amount, ...rest } = request.body;
      const metadata = requestMetadata(request, app.clock());
      const id = await runInTransaction(app.commands, (trx) => createProductService(trx, { ...rest, amount_kobo: nairaToKobo(amount) }, metadata));
      return { success: true, message: catalogueMessages.productServiceCreated, data: (await findProductService(app.db, id))! };
    },
  );

  app.put(
    '/product-services/:id/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, body: productServiceUpdateBody, response: { 200: envelope(productService) } } },
    async (request) => {
      const { amount, ...rest } = request.body;
      const changes = { ...rest, amount_kobo: amount === undefined ? undefined : nairaToKobo(amount) };
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateProductService(trx, request.params.id, changes, metadata));
      return { success: true, message: catalogueMessages.productServiceUpdated, data: (await findProductService(app.db, request.params.id))! };
    },
  );
};
