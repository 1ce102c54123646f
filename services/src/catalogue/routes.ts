import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { requireAdmin, requireSignedIn } from '../auth/guards';
import {
  catalogueMessages,
  idParams,
  incentive,
  incentiveCreateFields,
  incentiveUpdateFields,
  packageCreateBody,
  packageUpdateBody,
  rank,
  rankBadge,
  rankCreateBody,
  rankUpdateBody,
  registrationPackage,
} from '../contracts/catalogue';
import { envelope } from '../contracts/http';
import { runInTransaction } from '../core/command';
import { NotFound } from '../core/errors';
import { nairaToKobo } from '../core/money';
import { packageChanges, packageFields } from './entry-fields';
import { parseFormFields, readForm, storeImage } from '../core/uploads';
import { billPaymentRoutes } from './bill-payment-routes';
import { companyBankRoutes } from './company-bank-routes';
import { createIncentive, createRank, defineEntry, updateEntry, updateIncentive, updateRank } from './commands';
import { catalogueKinds, notFoundMessage } from './kinds';
import { productRoutes } from './product-routes';
import { findIncentive, findPackage, findRank, findRankBadge, listIncentives, listPackages, listRanks, packageToApi } from './queries';
import { stockistPackageRoutes } from './stockist-package-routes';

const kobo = (naira: number | undefined) => (naira === undefined ? undefined : nairaToKobo(naira));

/**
 * The catalogue (seed 002 §7): registration packages, ranks and incentives here; products,
 * company banks, stockist packages and the bill-payment catalogue in their own files.
 * Packages are public (the registration screen lists them); the other reads need a signed-in
 * account; every change needs an admin who may write, and is recorded as an event naming them.
 */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(productRoutes);
  await app.register(companyBankRoutes);
  await app.register(stockistPackageRoutes);
  await app.register(billPaymentRoutes);

  // ── Registration packages ───────────────────────────────────────────────────────────────
  app.get('/packages/all', { schema: { tags: ['catalogue'], response: { 200: envelope(z.array(registrationPackage)) } } }, async () => {
    const rows = await listPackages(app.db);
    return { success: true, message: 'Packages', data: rows.map(packageToApi) };
  });

  app.get('/packages/:id', { schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(registrationPackage) } } }, async (request) => {
    const row = await findPackage(app.db, request.params.id);
    if (!row) throw new NotFound(notFoundMessage(catalogueKinds.package));
    return { success: true, message: 'Package', data: packageToApi(row) };
  });

  app.post(
    '/packages/create',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], body: packageCreateBody, response: { 200: envelope(registrationPackage) } } },
    async (request) => {
      const body = request.body;
      const fields = packageFields(body);
      const metadata = requestMetadata(request, app.clock());
      const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, catalogueKinds.package, fields, metadata));
      return { success: true, message: catalogueMessages.packageCreated, data: packageToApi((await findPackage(app.db, id))!) };
    },
  );

  app.put(
    '/packages/:id/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, body: packageUpdateBody, response: { 200: envelope(registrationPackage) } } },
    async (request) => {
      const body = request.body;
      const changes = packageChanges(body);
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateEntry(trx, catalogueKinds.package, request.params.id, changes, metadata));
      return { success: true, message: catalogueMessages.packageUpdated, data: packageToApi((await findPackage(app.db, request.params.id))!) };
    },
  );

  // ── Ranks ───────────────────────────────────────────────────────────────────────────────
  app.get('/ranks/all', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], response: { 200: envelope(z.array(rank)) } } }, async () => ({
    success: true,
    message: 'Ranks',
    data: await listRanks(app.db),
  }));

  app.get('/ranks/:id', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(rank) } } }, async (request) => {
    const found = await findRank(app.db, request.params.id);
    if (!found) throw new NotFound(notFoundMessage(catalogueKinds.rank));
    return { success: true, message: 'Rank', data: found };
  });

  app.get(
    '/ranks/current-rank-badge/:id',
    { preHandler: requireSignedIn, schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(rankBadge) } } },
    async (request) => {
      const badge = await findRankBadge(app.db, request.params.id);
      if (!badge) throw new NotFound(notFoundMessage(catalogueKinds.rank));
      return { success: true, message: 'Rank badge', data: badge };
    },
  );

  app.post(
    '/ranks/create',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], body: rankCreateBody, response: { 200: envelope(rank) } } },
    async (request) => {
      const metadata = requestMetadata(request, app.clock());
      const id = await runInTransaction(app.commands, (trx) => createRank(trx, request.body, metadata));
      return { success: true, message: catalogueMessages.rankCreated, data: (await findRank(app.db, id))! };
    },
  );

  app.put(
    '/ranks/:id/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, body: rankUpdateBody, response: { 200: envelope(rank) } } },
    async (request) => {
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateRank(trx, request.params.id, request.body, metadata));
      return { success: true, message: catalogueMessages.rankUpdated, data: (await findRank(app.db, request.params.id))! };
    },
  );

  // ── Incentives (multipart: rank_id, incentive, worth, and an optional image in `file_path`) ──
  app.get('/incentives/all', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], response: { 200: envelope(z.array(incentive)) } } }, async () => ({
    success: true,
    message: 'Incentives',
    data: await listIncentives(app.db),
  }));

  app.get('/incentives/:id', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(incentive) } } }, async (request) => {
    const found = await findIncentive(app.db, request.params.id);
    if (!found) throw new NotFound(notFoundMessage(catalogueKinds.incentive));
    return { success: true, message: 'Incentive', data: found };
  });

  app.post('/incentives/create', { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], response: { 200: envelope(incentive) } } }, async (request) => {
    const form = await readForm(request);
    const body = parseFormFields(incentiveCreateFields, form.fields);
    const filePath = form.files.file_path ? await storeImage(app.config.UPLOAD_DIR, 'incentives', form.files.file_path, 'file_path') : null;
    const fields = { rank_id: body.rank_id, incentive: body.incentive, worth_kobo: nairaToKobo(body.worth), file_path: filePath };
    const metadata = requestMetadata(request, app.clock());
    const id = await runInTransaction(app.commands, (trx) => createIncentive(trx, fields, metadata));
    return { success: true, message: catalogueMessages.incentiveCreated, data: (await findIncentive(app.db, id))! };
  });

  app.post(
    '/incentives/:id/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(incentive) } } },
    async (request) => {
      const { id } = request.params;
      if (!(await findIncentive(app.db, id))) throw new NotFound(notFoundMessage(catalogueKinds.incentive));
      const form = await readForm(request);
      const body = parseFormFields(incentiveUpdateFields, form.fields);
      // No file chosen: the client drops the field and the image stays.
      const filePath = form.files.file_path ? await storeImage(app.config.UPLOAD_DIR, 'incentives', form.files.file_path, 'file_path') : undefined;
      const changes = { rank_id: body.rank_id, incentive: body.incentive, worth_kobo: kobo(body.worth), file_path: filePath };
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateIncentive(trx, id, changes, metadata));
      return { success: true, message: catalogueMessages.incentiveUpdated, data: (await findIncentive(app.db, id))! };
    },
  );
};
