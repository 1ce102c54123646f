import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Selectable, sql } from 'kysely';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { type ListRequest, type ResourceColumns, parseListRequest, selectPage, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import {
  adminProductCreateBody,
  adminProductUpdateBody,
  companyBank,
  companyBankCreateBody,
  companyBankUpdateBody,
  idParams,
  packageCreateBody,
  packageUpdateBody,
  product,
  registrationPackage,
  stockistPackage,
  stockistPackageCreateBody,
  stockistPackageUpdateBody,
} from '../contracts/catalogue';
import { runInTransaction } from '../core/command';
import type { Executor } from '../core/db';
import { NotFound, RuleViolation } from '../core/errors';
import { nairaToKobo } from '../core/money';
import { packageChanges, packageFields, productFields, stockistPackageChanges, stockistPackageFields } from './entry-fields';
import { type UploadedFile, storeImage, uploadMessages } from '../core/uploads';
import type { CompanyBanksTable, PackagesTable, ProductsTable, StockistPackagesTable } from '../database';
import { defineEntry, removeEntry, updateEntry } from './commands';
import { type CatalogueKind, catalogueKinds, notFoundMessage } from './kinds';
import { companyBankToApi, findCompanyBank, findPackage, findProduct, findStockistPackage, packageToApi, productToApi, stockistPackageToApi } from './queries';

/**
 * The catalogue as back-office resources (API.md §2, STYLE.md rule 12): `packages`, `products`,
 * `company-banks` and `stockist-packages` under /api/admin, speaking ra-data-simple-rest. Reads
 * are for admin and finance staff; every write is an admin's and runs the same catalogue commands
 * as the portal paths (/packages/create, /products/{id}/update, /banks/{id}/delete...), so it
 * records the same events. Money in records and bodies is naira; kobo stays inside.
 */

const kobo = (naira: number | undefined) => (naira === undefined ? undefined : nairaToKobo(naira));
const money = (column: string) => ({ sql: sql`(${sql.ref(column)} / 100.0)`, type: 'number' }) as const;
const ilike = (column: string, q: string) => sql<boolean>`${sql.ref(column)} ilike ${`%${q}%`}`;

type Resource = { table: string; columns: ResourceColumns; defaultSort: [string, 'ASC' | 'DESC']; search: (q: string) => ReturnType<typeof ilike> };

const packagesResource: Resource = {
  table: 'packages',
  columns: {
    id: { sql: sql`id`, type: 'number' },
    name: { sql: sql`name`, type: 'text' },
    point_value: { sql: sql`point_value`, type: 'number' },
    registration_value: money('registration_value'),
    pickup_amount: money('pickup_amount'),
    matching_bonus_cap: money('matching_bonus_cap'),
  },
  defaultSort: ['id', 'ASC'],
  search: (q) => ilike('name', q),
};

const productsResource: Resource = {
  table: 'products',
  columns: {
    id: { sql: sql`id`, type: 'number' },
    name: { sql: sql`name`, type: 'text' },
    description: { sql: sql`description`, type: 'text' },
    worth: money('worth'),
    points: { sql: sql`points`, type: 'number' },
    is_active: { sql: sql`is_active::text`, type: 'text' },
  },
  defaultSort: ['id', 'ASC'],
  search: (q) => sql<boolean>`(${ilike('name', q)} or ${ilike('description', q)})`,
};

const companyBanksResource: Resource = {
  table: 'company_banks',
  columns: {
    id: { sql: sql`id`, type: 'number' },
    bank_name: { sql: sql`bank_name`, type: 'text' },
    bank_account_name: { sql: sql`bank_account_name`, type: 'text' },
    bank_account_number: { sql: sql`bank_account_number`, type: 'text' },
  },
  defaultSort: ['id', 'ASC'],
  search: (q) => sql<boolean>`(${ilike('bank_name', q)} or ${ilike('bank_account_name', q)} or ${ilike('bank_account_number', q)})`,
};

const stockistPackagesResource: Resource = {
  table: 'stockist_packages',
  columns: {
    id: { sql: sql`id`, type: 'number' },
    name: { sql: sql`name`, type: 'text' },
    registration_value: money('registration_value'),
    sales_bonus_percentage: { sql: sql`sales_bonus_percentage`, type: 'number' },
    pickup_amount: money('pickup_amount'),
    point_value: { sql: sql`point_value`, type: 'number' },
    value: { sql: sql`value`, type: 'number' },
  },
  defaultSort: ['value', 'ASC'],
  search: (q) => ilike('name', q),
};

async function listRows<Row>(db: Executor, resource: Resource, list: ListRequest): Promise<{ rows: Row[]; total: number }> {
  return selectPage<Row>(db, { columns: sql`*`, from: sql`from ${sql.table(resource.table)}`, tiebreak: sql`id asc`, list });
}

/** A data URL from the back office's image input, as the uploads' checks take a file. */
function imageFromDataUrl(value: string): UploadedFile {
  const match = /^data:[^;,]*;base64,(.*)$/s.exec(value);
  if (!match) throw new RuleViolation(uploadMessages.notAnImage, 'image');
  return { field: 'image', filename: 'image', buffer: Buffer.from(match[1]!, 'base64'), truncated: false };
}

/**
 * react-admin shows a 422's `errors` beside the form's fields when each is a string, and toasts
 * `errors.root.serverError` (docs/Validation.md, server-side validation): the API's
 * `{ field: [message] }` is answered as `{ field: message, root: { serverError: message } }`.
 */
async function formErrors(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode !== 422 || typeof payload !== 'string') return payload;
  try {
    const body = JSON.parse(payload) as { message?: string; errors?: Record<string, unknown> };
    if (!body.errors) return payload;
    const errors = Object.fromEntries(Object.entries(body.errors).map(([field, messages]) => [field, Array.isArray(messages) ? String(messages[0]) : messages]));
    return JSON.stringify({ ...body, errors: { ...errors, root: { serverError: body.message } } });
  } catch {
    return payload;
  }
}

export const catalogueAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', formErrors);
  // Before validation: a finance officer or member sending a bad body is refused, not corrected.
  const read = { preValidation: requireAdmin('read') };
  const write = { preValidation: requireAdmin('write') };
  const tags = ['admin', 'catalogue'];
  const metadata = (request: FastifyRequest) => requestMetadata(request, app.clock());
  const found = <T>(kind: CatalogueKind<any>, record: T | undefined): T => {
    if (!record) throw new NotFound(notFoundMessage(kind));
    return record;
  };

  // ── packages ──────────────────────────────────────────────────────────────────────────────
  app.get('/admin/packages', { ...read, schema: { tags, querystring: simpleRestQuery, response: { 200: z.array(registrationPackage) } } }, async (request, reply) => {
    const list = parseListRequest(request.query, packagesResource);
    const { rows, total } = await listRows<Selectable<PackagesTable>>(app.db, packagesResource, list);
    return sendList(reply, 'packages', list, rows.map(packageToApi), total);
  });

  app.get('/admin/packages/:id', { ...read, schema: { tags, params: idParams, response: { 200: registrationPackage } } }, async (request) => {
    return packageToApi(found(catalogueKinds.package, await findPackage(app.db, request.params.id)));
  });

  app.post('/admin/packages', { ...write, schema: { tags, body: packageCreateBody, response: { 200: registrationPackage } } }, async (request) => {
    const body = request.body;
    const fields = packageFields(body);
    const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, catalogueKinds.package, fields, metadata(request)));
    return packageToApi((await findPackage(app.db, id))!);
  });

  app.put('/admin/packages/:id', { ...write, schema: { tags, params: idParams, body: packageUpdateBody, response: { 200: registrationPackage } } }, async (request) => {
    const body = request.body;
    const changes = packageChanges(body);
    await runInTransaction(app.commands, (trx) => updateEntry(trx, catalogueKinds.package, request.params.id, changes, metadata(request)));
    return packageToApi(found(catalogueKinds.package, await findPackage(app.db, request.params.id)));
  });

  // ── products (the image comes as a data URL; bodies up to 2 MB for a 500 kB image) ─────────
  const imageBodyLimit = 2_000_000;

  app.get('/admin/products', { ...read, schema: { tags, querystring: simpleRestQuery, response: { 200: z.array(product) } } }, async (request, reply) => {
    const list = parseListRequest(request.query, productsResource);
    const { rows, total } = await listRows<Selectable<ProductsTable>>(app.db, productsResource, list);
    return sendList(reply, 'products', list, rows.map(productToApi), total);
  });

  app.get('/admin/products/:id', { ...read, schema: { tags, params: idParams, response: { 200: product } } }, async (request) => {
    return found(catalogueKinds.product, await findProduct(app.db, request.params.id));
  });

  app.post(
    '/admin/products',
    { ...write, bodyLimit: imageBodyLimit, schema: { tags, body: adminProductCreateBody, response: { 200: product } } },
    async (request) => {
      const body = request.body;
      const image = body.image ? await storeImage(app.config.UPLOAD_DIR, 'products', imageFromDataUrl(body.image), 'image') : null;
      const fields = productFields(body, image);
      const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, catalogueKinds.product, fields, metadata(request)));
      return (await findProduct(app.db, id))!;
    },
  );

  app.put(
    '/admin/products/:id',
    { ...write, bodyLimit: imageBodyLimit, schema: { tags, params: idParams, body: adminProductUpdateBody, response: { 200: product } } },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      found(catalogueKinds.product, await findProduct(app.db, id));
      // A new image replaces the old one; the stored path sent back keeps it; null removes it.
      const image =
        body.image === null ? null
        : body.image?.startsWith('data:') ? await storeImage(app.config.UPLOAD_DIR, 'products', imageFromDataUrl(body.image), 'image')
        : undefined;
      const changes = { name: body.name, description: body.description, image, worth_kobo: kobo(body.worth), points: body.points, is_active: body.is_active };
      await runInTransaction(app.commands, (trx) => updateEntry(trx, catalogueKinds.product, id, changes, metadata(request)));
      return (await findProduct(app.db, id))!;
    },
  );

  // ── company banks ─────────────────────────────────────────────────────────────────────────
  app.get('/admin/company-banks', { ...read, schema: { tags, querystring: simpleRestQuery, response: { 200: z.array(companyBank) } } }, async (request, reply) => {
    const list = parseListRequest(request.query, companyBanksResource);
    const { rows, total } = await listRows<Selectable<CompanyBanksTable>>(app.db, companyBanksResource, list);
    return sendList(reply, 'company-banks', list, rows.map(companyBankToApi), total);
  });

  app.get('/admin/company-banks/:id', { ...read, schema: { tags, params: idParams, response: { 200: companyBank } } }, async (request) => {
    return found(catalogueKinds.companyBank, await findCompanyBank(app.db, request.params.id));
  });

  app.post('/admin/company-banks', { ...write, schema: { tags, body: companyBankCreateBody, response: { 200: companyBank } } }, async (request) => {
    const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, catalogueKinds.companyBank, request.body, metadata(request)));
    return (await findCompanyBank(app.db, id))!;
  });

  app.put('/admin/company-banks/:id', { ...write, schema: { tags, params: idParams, body: companyBankUpdateBody, response: { 200: companyBank } } }, async (request) => {
    const { bank_name, bank_account_name, bank_account_number } = request.body;
    await runInTransaction(app.commands, (trx) => updateEntry(trx, catalogueKinds.companyBank, request.params.id, { bank_name, bank_account_name, bank_account_number }, metadata(request)));
    return found(catalogueKinds.companyBank, await findCompanyBank(app.db, request.params.id));
  });

  app.delete('/admin/company-banks/:id', { ...write, schema: { tags, params: idParams, response: { 200: companyBank } } }, async (request) => {
    const record = found(catalogueKinds.companyBank, await findCompanyBank(app.db, request.params.id));
    await runInTransaction(app.commands, (trx) => removeEntry(trx, catalogueKinds.companyBank, request.params.id, metadata(request)));
    return record;
  });

  // ── stockist packages ─────────────────────────────────────────────────────────────────────
  app.get('/admin/stockist-packages', { ...read, schema: { tags, querystring: simpleRestQuery, response: { 200: z.array(stockistPackage) } } }, async (request, reply) => {
    const list = parseListRequest(request.query, stockistPackagesResource);
    const { rows, total } = await listRows<Selectable<StockistPackagesTable>>(app.db, stockistPackagesResource, list);
    return sendList(reply, 'stockist-packages', list, rows.map(stockistPackageToApi), total);
  });

  app.get('/admin/stockist-packages/:id', { ...read, schema: { tags, params: idParams, response: { 200: stockistPackage } } }, async (request) => {
    return found(catalogueKinds.stockistPackage, await findStockistPackage(app.db, request.params.id));
  });

  app.post('/admin/stockist-packages', { ...write, schema: { tags, body: stockistPackageCreateBody, response: { 200: stockistPackage } } }, async (request) => {
    const body = request.body;
    const fields = stockistPackageFields(body);
    const id = await runInTransaction(app.commands, (trx) => defineEntry(trx, catalogueKinds.stockistPackage, fields, metadata(request)));
    return (await findStockistPackage(app.db, id))!;
  });

  app.put(
    '/admin/stockist-packages/:id',
    { ...write, schema: { tags, params: idParams, body: stockistPackageUpdateBody, response: { 200: stockistPackage } } },
    async (request) => {
      const body = request.body;
      const changes = stockistPackageChanges(body);
      await runInTransaction(app.commands, (trx) => updateEntry(trx, catalogueKinds.stockistPackage, request.params.id, changes, metadata(request)));
      return found(catalogueKinds.stockistPackage, await findStockistPackage(app.db, request.params.id));
    },
  );
};
