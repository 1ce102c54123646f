import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { type ResourceColumns, parseListRequest, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import { createIncentive, createRank, updateIncentive, updateRank } from '../catalogue/commands';
import { catalogueKinds, notFoundMessage } from '../catalogue/kinds';
import { findIncentive, findRank } from '../catalogue/queries';
import { idParams, incentive, incentiveCreateFields, incentiveUpdateFields, rank, rankCreateBody, rankUpdateBody } from '../contracts/catalogue';
import { adminIncentiveClaim, imageDataUrl } from '../contracts/incentives';
import { runInTransaction } from '../core/command';
import { NotFound, RuleViolation } from '../core/errors';
import { koboToNaira, nairaToKobo } from '../core/money';
import { storeImage, uploadMessages } from '../core/uploads';
import { incentiveMessages } from './decider';
import { adminClaimToApi, adminClaimsQuery, findClaim } from './queries';

/**
 * The back office's incentive claims, incentives and ranks (seed 002 "Incentive Requests screen",
 * "Incentives screen", "Ranks"; API.md §2) as ra-data-simple-rest resources. Reads are for every
 * administrator (finance staff too); writes are the catalogue's own commands (events naming the
 * admin), answered with the record. Approving and declining a claim stay on their command paths
 * (PUT /api/incentive-claims/{id}/approve|decline).
 */

// ---- incentive claims ----------------------------------------------------------------------

const claimsResource = {
  columns: {
    id: { sql: sql`c.id::text`, type: 'text' },
    status: { sql: sql`c.status`, type: 'text' },
    member_id: { sql: sql`c.member_id::text`, type: 'text' },
    first_name: { sql: sql`m.first_name`, type: 'text' },
    last_name: { sql: sql`m.last_name`, type: 'text' },
    username: { sql: sql`m.username`, type: 'text' },
    package_name: { sql: sql`p.name`, type: 'text' },
    cpv: { sql: sql`c.cpv`, type: 'number' },
    points: { sql: sql`c.points`, type: 'number' },
    rank_id: { sql: sql`c.rank_id`, type: 'number' },
    rank_name: { sql: sql`c.rank_name`, type: 'text' },
    incentive_id: { sql: sql`c.incentive_id`, type: 'number' },
    incentive: { sql: sql`c.incentive`, type: 'text' },
    worth: { sql: sql`(c.worth / 100.0)`, type: 'number' },
    created_at: { sql: sql`c.created_at`, type: 'timestamp' },
    decided_at: { sql: sql`c.decided_at`, type: 'timestamp' },
  } satisfies ResourceColumns,
  defaultSort: ['created_at', 'DESC'] as ['created_at', 'DESC'],
  search: (q: string) => {
    const like = `%${q}%`;
    return sql<boolean>`(m.first_name ilike ${like} or m.last_name ilike ${like} or (m.first_name || ' ' || m.last_name) ilike ${like}
      or m.username ilike ${like} or c.incentive ilike ${like} or c.rank_name ilike ${like})`;
  },
};

// ---- incentives (the catalogue's) ----------------------------------------------------------

const incentivesResource = {
  columns: {
    id: { sql: sql`i.id`, type: 'number' },
    rank_id: { sql: sql`i.rank_id`, type: 'number' },
    name: { sql: sql`r.name`, type: 'text' },
    points: { sql: sql`r.points`, type: 'number' },
    incentive: { sql: sql`i.incentive`, type: 'text' },
    worth: { sql: sql`(i.worth / 100.0)`, type: 'number' },
  } satisfies ResourceColumns,
  defaultSort: ['points', 'ASC'] as ['points', 'ASC'],
  search: (q: string) => sql<boolean>`(i.incentive ilike ${`%${q}%`} or r.name ilike ${`%${q}%`})`,
};

/** Create and edit take the catalogue's fields as JSON, the image (if one was chosen) as a data URL. */
const incentiveCreateBody = incentiveCreateFields.extend({ image: imageDataUrl });
const incentiveUpdateBody = incentiveUpdateFields.extend({ image: imageDataUrl });

/** A data URL's bytes, checked and stored like an uploaded file (≤ 500 kB, JPEG/PNG/WebP by content). */
async function storeDataUrl(uploadDir: string, dataUrl: string): Promise<string> {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1).replace(/\s/g, '');
  // 4 base64 characters carry 3 bytes: refuse an oversize image before decoding it.
  if ((base64.length * 3) / 4 > 500_000 + 3) throw new RuleViolation(uploadMessages.tooLarge, 'image');
  const buffer = Buffer.from(base64, 'base64');
  return storeImage(uploadDir, 'incentives', { field: 'image', filename: 'image', buffer, truncated: false }, 'image');
}

// ---- ranks ---------------------------------------------------------------------------------

const ranksResource = {
  columns: {
    id: { sql: sql`r.id`, type: 'number' },
    name: { sql: sql`r.name`, type: 'text' },
    points: { sql: sql`r.points`, type: 'number' },
    is_global_profit_eligible: { sql: sql`(case when r.is_global_profit_eligible then 1 else 0 end)`, type: 'number' },
    package_id: { sql: sql`r.package_id`, type: 'number' },
    package_name: { sql: sql`p.name`, type: 'text' },
  } satisfies ResourceColumns,
  defaultSort: ['points', 'ASC'] as ['points', 'ASC'],
  search: (q: string) => sql<boolean>`(r.name ilike ${`%${q}%`} or r.description ilike ${`%${q}%`})`,
};

/** Requests made at the same moment keep the order they were made in, in the list's direction. */
const sortsDown = (sort: string | undefined) => sort === undefined || /"desc"/i.test(sort);

export const incentiveAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  // ── /admin/incentive-claims ────────────────────────────────────────────────────────────
  app.get(
    '/admin/incentive-claims',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(adminIncentiveClaim) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, claimsResource);
      const rows = await adminClaimsQuery(app.db).where(list.where).orderBy(list.orderBy).orderBy('c.claimed_position', sortsDown(request.query.sort) ? 'desc' : 'asc').limit(list.limit).offset(list.offset).execute();
      const { total } = await app.db
        .selectFrom('incentive_claims as c')
        .innerJoin('members as m', 'm.id', 'c.member_id')
        .leftJoin('packages as p', 'p.id', 'm.package_id')
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .where(list.where)
        .executeTakeFirstOrThrow();
      return sendList(reply, 'incentive-claims', list, rows.map(adminClaimToApi), Number(total));
    },
  );

  app.get(
    '/admin/incentive-claims/:id',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: z.object({ id: z.string() }), response: { 200: adminIncentiveClaim } } },
    async (request) => {
      const found = z.uuid().safeParse(request.params.id).success ? await findClaim(app.db, request.params.id) : undefined;
      if (!found) throw new NotFound(incentiveMessages.claimNotFound);
      return found;
    },
  );

  // ── /admin/incentives ──────────────────────────────────────────────────────────────────
  const incentivesQuery = () => app.db.selectFrom('incentives as i').innerJoin('ranks as r', 'r.id', 'i.rank_id');

  app.get(
    '/admin/incentives',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(incentive) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, incentivesResource);
      const rows = await incentivesQuery()
        .select(['i.id', 'r.name', 'r.points', 'i.incentive', 'i.worth', 'i.file_path', 'i.rank_id'])
        .where(list.where)
        .orderBy(list.orderBy)
        .orderBy('i.id')
        .limit(list.limit)
        .offset(list.offset)
        .execute();
      const { total } = await incentivesQuery()
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .where(list.where)
        .executeTakeFirstOrThrow();
      return sendList(reply, 'incentives', list, rows.map((row) => ({ ...row, worth: koboToNaira(row.worth) })), Number(total));
    },
  );

  app.get(
    '/admin/incentives/:id',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: idParams, response: { 200: incentive } } },
    async (request) => {
      const found = await findIncentive(app.db, request.params.id);
      if (!found) throw new NotFound(notFoundMessage(catalogueKinds.incentive));
      return found;
    },
  );

  app.post(
    '/admin/incentives',
    { preHandler: requireAdmin('write'), schema: { tags: ['admin'], body: incentiveCreateBody, response: { 200: incentive } } },
    async (request) => {
      const body = request.body;
      const filePath = body.image ? await storeDataUrl(app.config.UPLOAD_DIR, body.image) : null;
      const fields = { rank_id: body.rank_id, incentive: body.incentive, worth_kobo: nairaToKobo(body.worth), file_path: filePath };
      const metadata = requestMetadata(request, app.clock());
      const id = await runInTransaction(app.commands, (trx) => createIncentive(trx, fields, metadata));
      return (await findIncentive(app.db, id))!;
    },
  );

  app.put(
    '/admin/incentives/:id',
    { preHandler: requireAdmin('write'), schema: { tags: ['admin'], params: idParams, body: incentiveUpdateBody, response: { 200: incentive } } },
    async (request) => {
      const { id } = request.params;
      if (!(await findIncentive(app.db, id))) throw new NotFound(notFoundMessage(catalogueKinds.incentive));
      const body = request.body;
      // No image chosen: the image stays (seed 002 §5: the file field is dropped from the request).
      const filePath = body.image ? await storeDataUrl(app.config.UPLOAD_DIR, body.image) : undefined;
      const changes = { rank_id: body.rank_id, incentive: body.incentive, worth_kobo: body.worth === undefined ? undefined : nairaToKobo(body.worth), file_path: filePath };
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateIncentive(trx, id, changes, metadata));
      return (await findIncentive(app.db, id))!;
    },
  );

  // ── /admin/ranks ───────────────────────────────────────────────────────────────────────
  const ranksQuery = () => app.db.selectFrom('ranks as r').leftJoin('packages as p', 'p.id', 'r.package_id');

  app.get(
    '/admin/ranks',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(rank) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, ranksResource);
      const rows = await ranksQuery()
        .select(['r.id', 'r.name', 'r.points', 'r.is_global_profit_eligible', 'r.description', 'r.package_id', 'p.name as package_name'])
        .where(list.where)
        .orderBy(list.orderBy)
        .orderBy('r.id')
        .limit(list.limit)
        .offset(list.offset)
        .execute();
      const { total } = await ranksQuery()
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .where(list.where)
        .executeTakeFirstOrThrow();
      const records = rows.map((row) => ({ ...row, is_global_profit_eligible: row.is_global_profit_eligible ? (1 as const) : (0 as const), package: row.package_id }));
      return sendList(reply, 'ranks', list, records, Number(total));
    },
  );

  app.get(
    '/admin/ranks/:id',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: idParams, response: { 200: rank } } },
    async (request) => {
      const found = await findRank(app.db, request.params.id);
      if (!found) throw new NotFound(notFoundMessage(catalogueKinds.rank));
      return found;
    },
  );

  app.post(
    '/admin/ranks',
    { preHandler: requireAdmin('write'), schema: { tags: ['admin'], body: rankCreateBody, response: { 200: rank } } },
    async (request) => {
      const metadata = requestMetadata(request, app.clock());
      const id = await runInTransaction(app.commands, (trx) => createRank(trx, request.body, metadata));
      return (await findRank(app.db, id))!;
    },
  );

  app.put(
    '/admin/ranks/:id',
    { preHandler: requireAdmin('write'), schema: { tags: ['admin'], params: idParams, body: rankUpdateBody, response: { 200: rank } } },
    async (request) => {
      const { id } = request.params;
      if (!(await findRank(app.db, id))) throw new NotFound(notFoundMessage(catalogueKinds.rank));
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => updateRank(trx, id, request.body, metadata));
      return (await findRank(app.db, id))!;
    },
  );
};
