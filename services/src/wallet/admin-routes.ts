import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type ResourceColumns, parseListRequest, selectPage, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import { type AdminWithdrawal, type WithdrawalHistoryEntry, adminWithdrawal, adminWithdrawalDetail } from '../contracts/finance';
import type { Executor } from '../core/db';
import { NotFound } from '../core/errors';
import { koboToNaira } from '../core/money';
import { walletEventTypes } from './events';

/**
 * The back office's `withdrawals` resource (API.md §2; seed 002 Transactions tab 1, seed 001 §2.12):
 * every withdrawal and admin payout, read from the `withdrawals` read table with the member's
 * names and, for a failed one, how it failed (the `WithdrawalFailed` event's outcome).
 * Filters: id (one or many), q (username, names, transfer reference), status, outcome, type,
 * member_id, username, amount/created_at/payout_date ranges (_gte/_lte).
 */
const from = sql`
  withdrawals w
  join members m on m.id = w.member_id
  left join lateral (
    select e.data->>'outcome' as outcome from events e
    where e.stream_id = 'wallet-' || w.member_id::text and e.type = 'WithdrawalFailed' and e.data->>'withdrawal_id' = w.id::text
    order by e.global_position desc limit 1
  ) f on true`;

const withdrawalsResource = {
  columns: {
    id: { sql: sql`w.id::text`, type: 'text' },
    member_id: { sql: sql`w.member_id::text`, type: 'text' },
    username: { sql: sql`m.username`, type: 'text' },
    first_name: { sql: sql`m.first_name`, type: 'text' },
    last_name: { sql: sql`m.last_name`, type: 'text' },
    full_name: { sql: sql`(m.first_name || ' ' || m.last_name)`, type: 'text' },
    amount: { sql: sql`(w.amount / 100.0)`, type: 'number' },
    charge: { sql: sql`(w.fee / 100.0)`, type: 'number' },
    fee: { sql: sql`(w.fee / 100.0)`, type: 'number' },
    net_amount: { sql: sql`(w.net_amount / 100.0)`, type: 'number' },
    status: { sql: sql`w.status`, type: 'text' },
    outcome: { sql: sql`f.outcome`, type: 'text' },
    type: { sql: sql`w.kind`, type: 'text' },
    bank_name: { sql: sql`w.bank_name`, type: 'text' },
    transfer_reference: { sql: sql`w.transfer_reference`, type: 'text' },
    created_at: { sql: sql`w.created_at`, type: 'timestamp' },
    payout_date: { sql: sql`w.sent_at`, type: 'timestamp' },
    completed_at: { sql: sql`w.completed_at`, type: 'timestamp' },
  } satisfies ResourceColumns,
  defaultSort: ['created_at', 'DESC'] as ['created_at', 'DESC'],
  search: (q: string) => {
    const like = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<boolean>`(m.username ilike ${like} or m.first_name ilike ${like} or m.last_name ilike ${like}
      or (m.first_name || ' ' || m.last_name) ilike ${like} or w.transfer_reference ilike ${like})`;
  },
};

type Row = {
  id: string;
  member_id: string;
  username: string;
  first_name: string;
  last_name: string;
  amount: number;
  fee: number;
  net_amount: number;
  status: AdminWithdrawal['status'];
  outcome: AdminWithdrawal['outcome'];
  kind: AdminWithdrawal['type'];
  automatic: boolean;
  reason: string;
  bank_name: string;
  account_number: string;
  account_name: string;
  transfer_reference: string;
  transfer_code: string | null;
  failure_reason: string | null;
  created_at: Date;
  sent_at: Date | null;
  completed_at: Date | null;
};

const columns = sql`
  w.id::text as id, w.member_id::text as member_id, m.username, m.first_name, m.last_name, w.amount, w.fee, w.net_amount, w.status,
  f.outcome, w.kind, w.automatic, w.reason, w.bank_name, w.account_number, w.account_name, w.transfer_reference, w.transfer_code,
  w.failure_reason, w.created_at, w.sent_at, w.completed_at`;

const toRecord = (r: Row): AdminWithdrawal => ({
  id: r.id,
  member_id: r.member_id,
  username: r.username,
  first_name: r.first_name,
  last_name: r.last_name,
  full_name: `${r.first_name} ${r.last_name}`.trim(),
  amount: koboToNaira(Number(r.amount)),
  charge: koboToNaira(Number(r.fee)),
  fee: koboToNaira(Number(r.fee)),
  net_amount: koboToNaira(Number(r.net_amount)),
  status: r.status,
  outcome: r.status === 'failed' ? r.outcome : null,
  type: r.kind,
  automatic: r.automatic,
  reason: r.reason,
  bank_name: r.bank_name,
  account_number: r.account_number,
  account_name: r.account_name,
  transfer_reference: r.transfer_reference,
  transfer_code: r.transfer_code,
  failure_reason: r.failure_reason,
  created_at: r.created_at.toISOString(),
  payout_date: r.sent_at?.toISOString() ?? null,
  completed_at: r.completed_at?.toISOString() ?? null,
  stream_id: `wallet-${r.member_id}`,
});

/** The withdrawal's own events on its wallet stream (the stream also holds the wallet's other movements). */
async function withdrawalHistory(db: Executor, withdrawal: AdminWithdrawal): Promise<WithdrawalHistoryEntry[]> {
  const types = walletEventTypes.filter((type) => type.startsWith('Withdrawal') && type !== 'WithdrawalAmountSet');
  const { rows } = await sql<{ id: number; type: string; recorded_at: Date; actor_type: string | null; actor_id: string | null; data: unknown }>`
    select global_position as id, type, recorded_at, metadata->'actor'->>'type' as actor_type, metadata->'actor'->>'id' as actor_id, data
    from events
    where stream_id = ${withdrawal.stream_id} and type in (${sql.join(types)}) and data->>'withdrawal_id' = ${withdrawal.id}
    order by global_position`.execute(db);
  return rows.map((row) => ({ ...row, id: Number(row.id), recorded_at: row.recorded_at.toISOString() }));
}

export const adminWithdrawalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/withdrawals',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(adminWithdrawal) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, withdrawalsResource);
      const { rows, total } = await selectPage<Row>(app.db, { columns, from: sql`from ${from}`, tiebreak: sql`w.created_at desc, w.id`, list });
      return sendList(reply, 'withdrawals', list, rows.map(toRecord), total);
    },
  );

  app.get(
    '/admin/withdrawals/:id',
    {
      preHandler: requireAdmin('read'),
      schema: { tags: ['admin'], params: z.object({ id: z.uuid({ error: 'Withdrawal not found.' }) }), response: { 200: adminWithdrawalDetail } },
    },
    async (request) => {
      const { rows } = await sql<Row>`select ${columns} from ${from} where w.id = ${request.params.id}`.execute(app.db);
      if (!rows[0]) throw new NotFound('Withdrawal not found.');
      const record = toRecord(rows[0]);
      return { ...record, history: await withdrawalHistory(app.db, record) };
    },
  );
};
