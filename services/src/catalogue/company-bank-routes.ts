import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { requireAdmin, requireSignedIn } from '../auth/guards';
import { catalogueMessages, companyBank, companyBankCreateBody, companyBankUpdateBody, idParams } from '../contracts/catalogue';
import { envelope } from '../contracts/http';
import { runInTransaction } from '../core/command';
import { NotFound } from '../core/errors';
import { defineEntry, removeEntry, updateEntry } from './commands';
import { catalogueKinds, notFoundMessage } from './kinds';
import { findCompanyBank, listCompanyBanks } from './queries';

/**
 * The company's own bank accounts (seed 002 "Company details"): members read them to pay by
 * transfer. Deleting one records CompanyBankRemoved; its row leaves the list, its stream stays.
 */
export const companyBankRoutes: FastifyPluginAsyncZod = async (app) => {
  const kind = catalogueKinds.companyBank;

  app.get('/banks/all', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], response: { 200: envelope(z.array(companyBank)) } } }, async () => ({
    success: true,
    message: 'Banks',
    data: await listCompanyBanks(app.db),
  }));

  app.get('/banks/:id/single', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(companyBank) } } }, async (request) => {
    const found = await findCompanyBank(app.db, request.params.id);
    if (!found) throw new NotFound(notFoundMessage(kind));
    return { success: true, message: 'Bank', data: found };
  });

  app.post(
    '/banks/create',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], body: companyBankCreateBody, response: { 200: envelope(companyBank) } } },
    async (request) => {
      const metadata = requestMetadata(request, app.clock());
      const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, kind, request.body, metadata));
      return { success: true, message: catalogueMessages.bankCreated, data: (await findCompanyBank(app.db, id))! };
    },
  );

  app.put(
    '/banks/:id/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, body: companyBankUpdateBody, response: { 200: envelope(companyBank) } } },
    async (request) => {
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateEntry(trx, kind, request.params.id, request.body, metadata));
      return { success: true, message: catalogueMessages.bankUpdated, data: (await findCompanyBank(app.db, request.params.id))! };
    },
  );

  app.delete(
    '/banks/:id/delete',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(z.object({ id: z.number() })) } } },
    async (request) => {
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => removeEntry(trx, kind, request.params.id, metadata));
      return { success: true, message: catalogueMessages.bankDeleted, data: { id: request.params.id } };
    },
  );
};
