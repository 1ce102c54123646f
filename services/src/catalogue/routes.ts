import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { registrationPackage } from '../contracts/catalogue';
import { envelope } from '../contracts/http';
import { NotFound } from '../core/errors';
import { findPackage, listPackages, packageToApi } from './queries';

/** Public catalogue reads (the registration screen needs them before anyone signs in). */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/packages/all', { schema: { tags: ['catalogue'], response: { 200: envelope(z.array(registrationPackage)) } } }, async () => {
    const rows = await listPackages(app.db);
    return { success: true, message: 'Packages', data: rows.map(packageToApi) };
  });

  app.get(
    '/packages/:id',
    { schema: { tags: ['catalogue'], params: z.object({ id: z.coerce.number().int() }), response: { 200: envelope(registrationPackage) } } },
    async (request) => {
      const row = await findPackage(app.db, request.params.id);
      if (!row) throw new NotFound('Package not found.');
      return { success: true, message: 'Package', data: packageToApi(row) };
    },
  );
};
