import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type ResourceColumns, parseListRequest, selectPage, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import { type AdminMatchingCycle, adminMatchingCycle, adminMatchingResult, closeDueResult } from '../contracts/matching';
import { envelope, errorBody } from '../contracts/http';
import { NotFound } from '../core/errors';
import { koboToNaira } from '../core/money';
import { getSettings } from '../settings/projections';
import { companyDate } from '../wallet/payout-schedule';
import { lastClosedCycle, runMatchingSchedule } from './commands';
import { isCalendarDate } from './policies';
import { actorColumns, matchingReasonText, nextCycle, runActor } from './queries';

/**
 * The back office's matching cycles (issue 14 item 5, docs/back-office.md): `matching-cycles`
 * (one row per closed cycle with its totals and who closed it), `matching-results` (one row per
 * member with volume at a cycle: the show page's list, filtered by cycle_end), and the admins'
 * "Close due cycle": the schedule's own command (runMatchingSchedule) with the admin as actor.
 */

const cyclesFrom = sql`from matching_cycles c`;

const cycleColumns = {
  id: { sql: sql`c.cycle_end::text`, type: 'text' },
  cycle_end: { sql: sql`c.cycle_end::text`, type: 'text' },
  closed_at: { sql: sql`c.closed_at`, type: 'timestamp' },
  paid_at: { sql: sql`c.paid_at`, type: 'timestamp' },
  members_paid: { sql: sql`c.members_matched`, type: 'number' },
  members_capped: { sql: sql`c.members_capped`, type: 'number' },
  members_not_qualified: { sql: sql`c.members_not_qualified`, type: 'number' },
  pairs: { sql: sql`c.pairs`, type: 'number' },
  credited: { sql: sql`(c.credited_kobo / 100.0)`, type: 'number' },
  withheld: { sql: sql`(c.withheld_kobo / 100.0)`, type: 'number' },
  closed_by_type: { sql: sql`(c.closed_by->>'type')`, type: 'text' },
} satisfies ResourceColumns;

type CycleRow = {
  cycle_end: string;
  frequency_days: number;
  total_pv: number;
  percent: string;
  unit_point_value_kobo: string;
  closed_at: Date;
  paid_at: Date | null;
  members_matched: number;
  members_capped: number;
  members_not_qualified: number;
  pairs: string;
  credited_kobo: string;
  withheld_kobo: string;
  closer_type: string | null;
  closer_id: string | null;
  closer_name: string | null;
  closer_email: string | null;
};

const cycleSelect = sql`
  c.cycle_end::text as cycle_end, c.frequency_days, c.total_pv, c.percent, c.unit_point_value_kobo, c.closed_at, c.paid_at,
  c.members_matched, c.members_capped, c.members_not_qualified, c.pairs, c.credited_kobo, c.withheld_kobo,
  ${actorColumns(sql`c.closed_by`, 'closer')}`;

const toCycle = (r: CycleRow): AdminMatchingCycle => ({
  id: r.cycle_end,
  cycle_end: r.cycle_end,
  frequency_days: r.frequency_days,
  total_pv: Number(r.total_pv),
  percent: Number(r.percent),
  unit_point_value: koboToNaira(Number(r.unit_point_value_kobo)),
  closed_at: r.closed_at.toISOString(),
  closed_by: runActor(r.closer_type, r.closer_id, r.closer_name, r.closer_email),
  paid_at: r.paid_at?.toISOString() ?? null,
  members_paid: r.members_matched,
  members_capped: r.members_capped,
  members_not_qualified: r.members_not_qualified,
  pairs: Number(r.pairs),
  credited: koboToNaira(Number(r.credited_kobo)),
  withheld: koboToNaira(Number(r.withheld_kobo)),
});

const resultsFrom = sql`from matching_results r join members m on m.id = r.member_id`;

const resultColumns = {
  id: { sql: sql`(r.cycle_end::text || ':' || r.member_id::text)`, type: 'text' },
  cycle_end: { sql: sql`r.cycle_end::text`, type: 'text' },
  member_id: { sql: sql`r.member_id::text`, type: 'text' },
  username: { sql: sql`m.username`, type: 'text' },
  full_name: { sql: sql`(m.first_name || ' ' || m.last_name)`, type: 'text' },
  outcome: { sql: sql`r.outcome`, type: 'text' },
  reason: { sql: sql`r.reason`, type: 'text' },
  left_pv: { sql: sql`r.left_pv`, type: 'number' },
  right_pv: { sql: sql`r.right_pv`, type: 'number' },
  pairs: { sql: sql`r.pairs`, type: 'number' },
  credited: { sql: sql`(r.credited_kobo / 100.0)`, type: 'number' },
  withheld: { sql: sql`(r.withheld_kobo / 100.0)`, type: 'number' },
  carried_left: { sql: sql`r.carried_left`, type: 'number' },
  carried_right: { sql: sql`r.carried_right`, type: 'number' },
} satisfies ResourceColumns;

type ResultRow = {
  cycle_end: string;
  member_id: string;
  username: string;
  first_name: string;
  last_name: string;
  outcome: 'paid' | 'capped' | 'not_qualified';
  reason: string | null;
  left_pv: string;
  right_pv: string;
  pairs: string;
  credited_kobo: string;
  withheld_kobo: string;
  carried_left: string;
  carried_right: string;
};

const resultSelect = sql`
  r.cycle_end::text as cycle_end, r.member_id::text as member_id, m.username, m.first_name, m.last_name, r.outcome, r.reason,
  r.left_pv, r.right_pv, r.pairs, r.credited_kobo, r.withheld_kobo, r.carried_left, r.carried_right`;

const toResult = (r: ResultRow) => ({
  id: `${r.cycle_end}:${r.member_id}`,
  cycle_end: r.cycle_end,
  member_id: r.member_id,
  username: r.username,
  full_name: `${r.first_name} ${r.last_name}`.trim(),
  outcome: r.outcome,
  reason: r.reason,
  reason_text: matchingReasonText(r.outcome, r.reason),
  left_pv: Number(r.left_pv),
  right_pv: Number(r.right_pv),
  pairs: Number(r.pairs),
  credited: koboToNaira(Number(r.credited_kobo)),
  withheld: koboToNaira(Number(r.withheld_kobo)),
  carried_left: Number(r.carried_left),
  carried_right: Number(r.carried_right),
});

const cycleParams = z.object({ id: z.string().refine(isCalendarDate, { error: 'Matching cycle not found.' }) });

const listing = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

export const matchingAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/matching-cycles',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(adminMatchingCycle) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, { columns: cycleColumns, defaultSort: ['cycle_end', 'DESC'] });
      const { rows, total } = await selectPage<CycleRow>(app.db, { columns: cycleSelect, from: cyclesFrom, tiebreak: sql`c.cycle_end desc`, list });
      return sendList(reply, 'matching-cycles', list, rows.map(toCycle), total);
    },
  );

  app.get(
    '/admin/matching-cycles/:id',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: cycleParams, response: { 200: adminMatchingCycle } } },
    async (request) => {
      const { rows } = await sql<CycleRow>`select ${cycleSelect} ${cyclesFrom} where c.cycle_end = ${request.params.id}::date`.execute(app.db);
      if (!rows[0]) throw new NotFound('Matching cycle not found.');
      return toCycle(rows[0]);
    },
  );

  app.get(
    '/admin/matching-results',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(adminMatchingResult) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, {
        columns: resultColumns,
        defaultSort: ['credited', 'DESC'],
        search: (q) => {
          const like = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          return sql<boolean>`(m.username ilike ${like} or (m.first_name || ' ' || m.last_name) ilike ${like})`;
        },
      });
      const { rows, total } = await selectPage<ResultRow>(app.db, { columns: resultSelect, from: resultsFrom, tiebreak: sql`r.cycle_end desc, m.username`, list });
      return sendList(reply, 'matching-results', list, rows.map(toResult), total);
    },
  );

  app.post(
    '/admin/matching-cycles/close-due',
    { preHandler: requireAdmin('write'), schema: { tags: ['admin'], response: { 200: envelope(closeDueResult), 409: errorBody } } },
    async (request, reply) => {
      const now = app.clock();
      const account = request.account!;
      const { closed } = await runMatchingSchedule(app.commands, now, { type: 'admin', id: account.id });
      if (closed.length > 0) {
        const message = `Closed the matching ${closed.length === 1 ? 'cycle' : 'cycles'} ending ${listing(closed)}. Its bonuses are being paid.`;
        return { success: true, message: closed.length === 1 ? message : message.replace('Its', 'Their'), data: { closed } };
      }
      const settings = await getSettings(app.db);
      const last = await lastClosedCycle(app.db);
      const next = nextCycle({ today: companyDate(now), frequencyDays: settings.matching_bonus_frequency, lastClosed: last });
      const message = last
        ? `The matching cycle ending ${last} is already closed. The next one ends ${next.cycleEnd} and can be closed from the day after.`
        : `No matching cycle has ended yet. The first one ends ${next.cycleEnd}.`;
      return reply.status(409).send({ success: false, message });
    },
  );
};
