import { sql } from 'kysely';
import type { Statement, StatementLine } from '../contracts/audit';
import { toCsv } from '../contracts/csv';
import type { Executor } from '../core/db';
import { NotFound } from '../core/errors';
import { koboToNaira } from '../core/money';
import { walletStream } from '../wallet/events';
import { describeEvent, lineType, membersNamedBy } from './describe';

/**
 * A member's wallet statement for a period (docs/audit.md): the opening balance, every credit and
 * debit with its cause, the closing balance. Read from the wallet stream itself, the events every
 * debit is decided on, so it balances by construction and its closing balance for a period ending
 * today is the wallet's balance.
 */

/** The events that move a wallet's balance, and by how much (BUSINESS-RULES.md §4). */
export type WalletMovement = { type: string; data: unknown };
export function movementOf(event: WalletMovement): { credit: number; debit: number } {
  const data = (event.data ?? {}) as { amount_kobo?: number; returned_kobo?: number };
  switch (event.type) {
    case 'BonusCredited':
      return { credit: data.amount_kobo ?? 0, debit: 0 };
    case 'WithdrawalFailed':
      return { credit: data.returned_kobo ?? 0, debit: 0 };
    case 'WithdrawalRequested':
    case 'WalletPaymentMade':
      return { credit: 0, debit: data.amount_kobo ?? 0 };
    default:
      return { credit: 0, debit: 0 };
  }
}
export const MOVEMENT_TYPES = ['BonusCredited', 'WithdrawalFailed', 'WithdrawalRequested', 'WalletPaymentMade'] as const;

/** The company's day is Lagos time (WAT, UTC+1 all year). */
const LAGOS_OFFSET_MS = 60 * 60 * 1000;
export const lagosDay = (at: Date) => new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10);
const startOfLagosDay = (day: string) => new Date(new Date(`${day}T00:00:00Z`).getTime() - LAGOS_OFFSET_MS);
const nextDay = (day: string) => new Date(new Date(`${day}T00:00:00Z`).getTime() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/** Without dates: the current month to today. */
export function statementPeriod(now: Date, from?: string, to?: string): { from: string; to: string } {
  const today = lagosDay(now);
  const end = to ?? today;
  return { from: from ?? `${(to ?? today).slice(0, 7)}-01`, to: end };
}

type MovementRow = { id: string | number; type: string; stream_id: string; data: unknown; recorded_at: Date };

/**
 * Lines are ordered by when their event says it happened, then by the stream: a bonus records the
 * time of its cause (compensation/projections.ts), so a late-running policy's credit falls in the
 * period of the activation that earned it, and a period's lines and its opening balance split the
 * stream at one instant.
 */
export async function memberStatement(db: Executor, memberId: string, period: { from: string; to: string }): Promise<Statement> {
  const member = await db.selectFrom('members').select(['id', 'username']).where('id', '=', memberId).executeTakeFirst();
  if (!member) throw new NotFound('Member not found.');
  const start = startOfLagosDay(period.from);
  const end = startOfLagosDay(nextDay(period.to));
  const stream = walletStream(memberId);
  const { rows: opening } = await sql<{ credit: string | null; debit: string | null }>`
    select
      coalesce(sum(case when type = 'BonusCredited' then (data->>'amount_kobo')::bigint when type = 'WithdrawalFailed' then (data->>'returned_kobo')::bigint else 0 end), 0)::text as credit,
      coalesce(sum(case when type in ('WithdrawalRequested', 'WalletPaymentMade') then (data->>'amount_kobo')::bigint else 0 end), 0)::text as debit
    from events where stream_id = ${stream} and type in (${sql.join([...MOVEMENT_TYPES])}) and recorded_at < ${start}`.execute(db);
  const openingKobo = Number(opening[0]?.credit ?? 0) - Number(opening[0]?.debit ?? 0);
  const { rows } = await sql<MovementRow>`
    select global_position as id, type, stream_id, data, recorded_at from events
    where stream_id = ${stream} and type in (${sql.join([...MOVEMENT_TYPES])}) and recorded_at >= ${start} and recorded_at < ${end}
    order by recorded_at, stream_position`.execute(db);
  const memberIds = [...new Set(rows.flatMap(membersNamedBy))];
  const usernames = new Map(
    memberIds.length === 0 ? [] : (await db.selectFrom('members').select(['id', 'username']).where('id', 'in', memberIds).execute()).map((m) => [m.id, m.username] as const),
  );
  let balance = openingKobo;
  let credits = 0;
  let debits = 0;
  const lines: StatementLine[] = rows.map((row) => {
    const { credit, debit } = movementOf(row);
    balance += credit - debit;
    credits += credit;
    debits += debit;
    return {
      id: Number(row.id),
      recorded_at: row.recorded_at.toISOString(),
      type: lineType(row),
      description: describeEvent(row, usernames, { ownWallet: true }),
      credit: koboToNaira(credit),
      debit: koboToNaira(debit),
      balance: koboToNaira(balance),
      credit_kobo: credit,
      debit_kobo: debit,
      balance_kobo: balance,
    };
  });
  return {
    member_id: member.id,
    username: member.username,
    from: period.from,
    to: period.to,
    opening_balance: koboToNaira(openingKobo),
    total_credits: koboToNaira(credits),
    total_debits: koboToNaira(debits),
    closing_balance: koboToNaira(balance),
    opening_balance_kobo: openingKobo,
    total_credits_kobo: credits,
    total_debits_kobo: debits,
    closing_balance_kobo: balance,
    lines,
  };
}

const naira2 = (kobo: number) => (kobo / 100).toFixed(2);

/**
 * The statement as CSV (contracts/csv.ts neutralises formulas): an opening line, one line per
 * movement with its event number (to find it in the explorer), a closing line. Naira with two
 * decimals; the kobo columns are exact.
 */
export function statementCsv(s: Statement): string {
  const columns = ['date', 'event', 'type', 'description', 'credit_naira', 'debit_naira', 'balance_naira', 'credit_kobo', 'debit_kobo', 'balance_kobo'];
  const rows: Array<Record<string, unknown>> = [
    { date: s.from, event: '', type: 'Opening balance', description: `Balance at the start of ${s.from} (Lagos time)`, credit_naira: '', debit_naira: '', balance_naira: naira2(s.opening_balance_kobo), credit_kobo: '', debit_kobo: '', balance_kobo: s.opening_balance_kobo },
    ...s.lines.map((line) => ({
      date: line.recorded_at,
      event: line.id,
      type: line.type,
      description: line.description,
      credit_naira: line.credit_kobo ? naira2(line.credit_kobo) : '',
      debit_naira: line.debit_kobo ? naira2(line.debit_kobo) : '',
      balance_naira: naira2(line.balance_kobo),
      credit_kobo: line.credit_kobo,
      debit_kobo: line.debit_kobo,
      balance_kobo: line.balance_kobo,
    })),
    { date: s.to, event: '', type: 'Closing balance', description: `Balance at the end of ${s.to} (Lagos time)`, credit_naira: naira2(s.total_credits_kobo), debit_naira: naira2(s.total_debits_kobo), balance_naira: naira2(s.closing_balance_kobo), credit_kobo: s.total_credits_kobo, debit_kobo: s.total_debits_kobo, balance_kobo: s.closing_balance_kobo },
  ];
  return toCsv(rows, columns);
}
