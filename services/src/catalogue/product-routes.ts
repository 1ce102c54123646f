import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { requireAdmin, requireSignedIn } from '../auth/guards';
import { catalogueMessages, idParams, product, productCreateFields, productToggleBody, productUpdateFields } from '../contracts/catalogue';
import { envelope } from '../contracts/http';
import { runInTransaction } from '../core/command';
import { NotFound } from '../core/errors';
import { nairaToKobo } from '../core/money';
import { productFields } from './entry-fields';
import { parseFormFields, readForm, storeImage } from '../core/uploads';
import { defineEntry, updateEntry } from './commands';
import { catalogueKinds, notFoundMessage } from './kinds';
import { findProduct, listProducts } from './queries';

/**
 * Company products (seed 002 "Products screen"), the lines of every pick-up order. Create and
 * update are multipart (name, worth, description, points, and an optional image in `image`);
 * members see the active ones; the admin list shows all.
 */
export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  const notFound = () => new NotFound(notFoundMessage(catalogueKinds.product));

  app.get('/products/all', { preHandler: requireAdmin('read'), schema: { tags: ['catalogue'], response: { 200: envelope(z.array(product)) } } }, async () => ({
    success: true,
    message: 'Products',
    data: await listProducts(app.db, { activeOnly: false }),
  }));

  app.get('/products/active', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], response: { 200: envelope(z.array(product)) } } }, async () => ({
    success: true,
    message: 'Products',
    data: await listProducts(app.db, { activeOnly: true }),
  }));

  app.get('/products/:id', { preHandler: requireSignedIn, schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(product) } } }, async (request) => {
    const found = await findProduct(app.db, request.params.id);
    if (!found) throw notFound();
    return { success: true, message: 'Product', data: found };
  });

  app.post('/products/create', { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], response: { 200: envelope(product) } } }, async (request) => {
    const form = await readForm(request);
    const body = parseFormFields(productCreateFields, form.fields);
    const image = form.files.image ? await storeImage(app.config.UPLOAD_DIR, 'products', form.files.image, 'image') : null;
    const fields = productFields(body, image);
    const metadata = requestMetadata(request, app.clock());
    const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, catalogueKinds.product, fields, metadata));
    return { success: true, message: catalogueMessages.productCreated, data: (await findProduct(app.db, id))! };
  });

  app.post(
    '/products/:id/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, response: { 200: envelope(product) } } },
    async (request) => {
      const { id } = request.params;
      if (!(await findProduct(app.db, id))) throw notFound();
      const form = await readForm(request);
      const body = parseFormFields(productUpdateFields, form.fields);
      const image = form.files.image ? await storeImage(app.config.UPLOAD_DIR, 'products', form.files.image, 'image') : undefined;
      const changes = { name: body.name, description: body.description, image, worth_kobo: body.worth === undefined ? undefined : nairaToKobo(body.worth), points: body.points };
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateEntry(trx, catalogueKinds.product, id, changes, metadata));
      return { success: true, message: catalogueMessages.productUpdated, data: (await findProduct(app.db, id))! };
    },
  );

  /** Enable or disable: recorded as ProductUpdated with is_active (and its previous value). */
  app.put(
    '/products/:id/toggle-status',
    { preHandler: requireAdmin('write'), schema: { tags: ['catalogue'], params: idParams, body: productToggleBody, response: { 200: envelope(product) } } },
    async (request) => {
      const { id } = request.params;
      const { is_active } = request.body;
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateEntry(trx, catalogueKinds.product, id, { is_active }, metadata));
      return { success: true, message: is_active ? catalogueMessages.productEnabled : catalogueMessages.productDisabled, data: (await findProduct(app.db, id))! };
    },
  );
};
