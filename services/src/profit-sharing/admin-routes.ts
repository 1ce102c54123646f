import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { type ResourceColumns, parseListRequest, selectPage, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import { envelope, errorBody } from '../contracts/http';
import { adminGlobalProfitRun, adminProfitPoolRun, runDueResult } from '../contracts/matching';
import { NotFound } from '../core/errors';
import { koboToNaira } from '../core/money';
import { actorColumns, runActor } from '../matching/queries';
import { getSettings } from '../settings/projections';
import { companyDate } from '../wallet/payout-schedule';
import { runGlobalProfitShare, runProfitPoolShare, shareDateAnchor } from './commands';
import { previousMonth, shareDateOnOrAfter } from './policies';

/**
 * The back office's periodic shares (issue 14 item 5): `global-profit-runs` and `profit-pool-runs`,
 * one row per run (its event on `global-profit-<date>` / `profit-pool-<month>`) with the wallet
 * lines it credited, and the admins' "Run due": the schedule's own commands with the admin as actor.
 */

type RunRow = {
  period: string;
  data: Record<string, unknown>;
  recorded_at: Date;
  runner_type: string | null;
  runner_id: string | null;
  runner_name: string | null;
  runner_email: string | null;
  members: number;
  credited_kobo: string;
};

/** A run's event and what it credited (kind-matched wallet lines caused by the event). */
const runsFrom = sql`
  from events e
  left join lateral (
    select count(distinct w.member_id)::int as members, coalesce(sum(w.amount), 0) as credited_kobo
    from wallet_entries w
    where w.cause_event_id = e.event_id and w.kind in ('global_profit', 'profit_pool') and w.entry = 'credited'
  ) t on true`;
const ofType = (type: string) => sql<boolean>`e.type = ${type}`;

const runSelect = (period: RawBuilder<unknown>) => sql`
  ${period} as period, e.data, e.recorded_at, ${actorColumns(sql`e.metadata->'actor'`, 'runner')}, t.members, t.credited_kobo`;

const commonColumns = {
  run_at: { sql: sql`e.recorded_at`, type: 'timestamp' },
  members_paid: { sql: sql`t.members`, type: 'number' },
  credited: { sql: sql`(t.credited_kobo / 100.0)`, type: 'number' },
  pool: { sql: sql`((e.data->>'pool_kobo')::bigint / 100.0)`, type: 'number' },
  kept: { sql: sql`(((e.data->>'pool_kobo')::bigint - t.credited_kobo) / 100.0)`, type: 'number' },
} satisfies ResourceColumns;

const globalPeriod = sql`(e.data->>'share_date')`;
const poolPeriod = sql`(e.data->>'month')`;

const kobo = (value: unknown) => Number(value ?? 0);

const toGlobal = (r: RunRow) => ({
  id: r.period,
  share_date: r.period,
  pool: koboToNaira(kobo(r.data.pool_kobo)),
  first_percentage: Number(r.data.first_percentage ?? 0),
  second_percentage: Number(r.data.second_percentage ?? 0),
  run_at: r.recorded_at.toISOString(),
  run_by: runActor(r.runner_type, r.runner_id, r.runner_name, r.runner_email),
  members_paid: r.members,
  credited: koboToNaira(Number(r.credited_kobo)),
  kept: koboToNaira(kobo(r.data.pool_kobo) - Number(r.credited_kobo)),
});

const toPool = (r: RunRow) => ({
  id: r.period,
  month: r.period,
  basis: koboToNaira(kobo(r.data.basis_kobo)),
  percentage: Number(r.data.percentage ?? 0),
  pool: koboToNaira(kobo(r.data.pool_kobo)),
  run_at: r.recorded_at.toISOString(),
  run_by: runActor(r.runner_type, r.runner_id, r.runner_name, r.runner_email),
  members_paid: r.members,
  credited: koboToNaira(Number(r.credited_kobo)),
  kept: koboToNaira(kobo(r.data.pool_kobo) - Number(r.credited_kobo)),
});

const resources = [
  {
    name: 'global-profit-runs',
    type: 'GlobalProfitShared',
    period: globalPeriod,
    columns: { id: { sql: globalPeriod, type: 'text' }, share_date: { sql: globalPeriod, type: 'text' }, ...commonColumns } satisfies ResourceColumns,
    defaultSort: ['share_date', 'DESC'] as [string, 'DESC'],
    record: toGlobal as (r: RunRow) => Record<string, unknown>,
    response: adminGlobalProfitRun,
    params: z.object({ id: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Global profit share not found.' }) }),
    missing: 'Global profit share not found.',
  },
  {
    name: 'profit-pool-runs',
    type: 'ProfitPoolShared',
    period: poolPeriod,
    columns: { id: { sql: poolPeriod, type: 'text' }, month: { sql: poolPeriod, type: 'text' }, basis: { sql: sql`((e.data->>'basis_kobo')::bigint / 100.0)`, type: 'number' }, ...commonColumns } satisfies ResourceColumns,
    defaultSort: ['month', 'DESC'] as [string, 'DESC'],
    record: toPool as (r: RunRow) => Record<string, unknown>,
    response: adminProfitPoolRun,
    params: z.object({ id: z.string().regex(/^\d{4}-\d{2}$/, { error: 'Profit pool not found.' }) }),
    missing: 'Profit pool not found.',
  },
] as const;

export const profitSharingAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const resource of resources) {
    app.get(
      `/admin/${resource.name}`,
      { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(resource.response as z.ZodTypeAny) } } },
      async (request, reply) => {
        const list = parseListRequest(request.query, { columns: resource.columns, defaultSort: resource.defaultSort });
        const { rows, total } = await selectPage<RunRow>(app.db, { columns: runSelect(resource.period), from: runsFrom, fixed: ofType(resource.type), tiebreak: sql`e.global_position desc`, list });
        return sendList(reply, resource.name, list, rows.map(resource.record), total);
      },
    );

    app.get(
      `/admin/${resource.name}/:id`,
      { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: resource.params, response: { 200: resource.response as z.ZodTypeAny } } },
      async (request) => {
        const { id } = request.params as { id: string };
        const { rows } = await sql<RunRow>`select ${runSelect(resource.period)} ${runsFrom} where ${ofType(resource.type)} and ${resource.period} = ${id}`.execute(app.db);
        if (!rows[0]) throw new NotFound(resource.missing);
        return resource.record(rows[0]);
      },
    );
  }

  app.post(
    '/admin/global-profit-runs/run-due',
    { preHandler: requireAdmin('write'), schema: { tags: ['admin'], response: { 200: envelope(runDueResult), 409: errorBody } } },
    async (request, reply) => {
      const result = await runGlobalProfitShare(app.commands, app.clock(), { type: 'admin', id: request.account!.id });
      if (result.ran) return { success: true, message: `Shared the global profit of ${result.period}. The members' shares are being paid.`, data: result };
      if (result.period) return reply.status(409).send({ success: false, message: `The global profit of ${result.period} has already been shared.` });
      const settings = await getSettings(app.db);
      const anchor = await shareDateAnchor(app.db);
      const next = anchor ? shareDateOnOrAfter(anchor, settings.next_global_profit_share_month, settings.next_global_profit_share_day) : null;
      return reply.status(409).send({
        success: false,
        message: next ? `No global profit share is due yet: the next share date is ${next}.` : 'No global profit share date is set yet (Settings, Global Profit).',
      });
    },
  );

  app.post(
    '/admin/profit-pool-runs/run-due',
    { preHandler: requireAdmin('write'), schema: { tags: ['admin'], response: { 200: envelope(runDueResult), 409: errorBody } } },
    async (request, reply) => {
      const now = app.clock();
      const result = await runProfitPoolShare(app.commands, now, { type: 'admin', id: request.account!.id });
      if (result.ran) return { success: true, message: `Shared the profit pool of ${result.period}. The members' shares are being paid.`, data: result };
      const month = result.period ?? previousMonth(companyDate(now));
      const done = await app.db.selectFrom('events').select('global_position').where('stream_id', '=', `profit-pool-${month}`).executeTakeFirst();
      return reply.status(409).send({
        success: false,
        message: done ? `The profit pool of ${month} has already been shared. The next one, for this month, is due on the 1st of next month.` : `The profit pool of ${month} cannot be shared: there is no profit-pool package.`,
      });
    },
  );
};
