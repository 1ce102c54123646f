import { sql } from 'kysely';
import type { EventTrace, TraceStep } from '../contracts/audit';
import type { Executor } from '../core/db';
import { formatNaira, koboToNaira } from '../core/money';
import { describeEvent, membersNamedBy } from './describe';
import { type EventRow, actorOf, eventAt, eventById, eventColumns, toSummary } from './explorer';

/** Far beyond any real chain (bonus ← activation ← approval is three); a guard against a loop in bad data. */
const MAX_STEPS = 25;

const METHOD_WORDS: Record<string, string> = { payment_gateway: 'card', pop: 'bank transfer (receipt)', wallet: 'wallet' };

const WITHDRAWAL_OUTCOMES = new Set(['WithdrawalSent', 'WithdrawalSucceeded', 'WithdrawalFailed']);

/**
 * The event one step up from `row`: the event its metadata names as its cause, or, for a
 * withdrawal's outcome (recorded from the provider's answer, so with no causation id), the
 * withdrawal request it settles on the same wallet stream. Null at a root: a person's command
 * (an approved payment, an admin's action, a member's request) or a schedule's run.
 */
async function parentOf(db: Executor, row: EventRow): Promise<{ row: EventRow; link: 'caused_by' | 'settles' } | null> {
  const causationId = (row.metadata as { causation_id?: string | null } | null)?.causation_id;
  if (causationId) {
    const cause = await eventById(db, causationId);
    return cause ? { row: cause, link: 'caused_by' } : null;
  }
  const withdrawalId = (row.data as { withdrawal_id?: unknown } | null)?.withdrawal_id;
  if (WITHDRAWAL_OUTCOMES.has(row.type) && typeof withdrawalId === 'string') {
    const { rows } = await sql<EventRow>`
      select ${eventColumns} from events
      where stream_id = ${row.stream_id} and type = 'WithdrawalRequested' and data->>'withdrawal_id' = ${withdrawalId}`.execute(db);
    return rows[0] ? { row: rows[0], link: 'settles' } : null;
  }
  return null;
}

function amountOf(row: EventRow): number | null {
  const data = (row.data ?? {}) as Record<string, unknown>;
  for (const key of ['amount_kobo', 'returned_kobo', 'amount_paid_kobo', 'registration_value_kobo', 'difference_kobo', 'total_price_kobo']) {
    if (typeof data[key] === 'number') return data[key] as number;
  }
  return null;
}

/**
 * A payment's decision (approved, declined, succeeded) carries only the payment id: the amount,
 * the member and what was paid for are on the payment's first event, read here so the root of a
 * trace says which payment it is.
 */
async function paymentOf(db: Executor, row: EventRow): Promise<{ member_id: string; purpose: string; method: string; amount_due_kobo: number; description: string } | null> {
  if (!row.stream_id.startsWith('package-payment-') || row.type === 'PackagePaymentInitiated') return null;
  const { rows } = await sql<{ data: { member_id: string; purpose: string; method: string; amount_due_kobo: number; description: string } }>`
    select data from events where stream_id = ${row.stream_id} and stream_position = 1 and type = 'PackagePaymentInitiated'`.execute(db);
  return rows[0]?.data ?? null;
}

/** From a wallet line (or any event) up through its causes to the root (docs/audit.md "Trace a naira"). */
export async function traceEvent(db: Executor, id: number): Promise<EventTrace> {
  const chain: Array<{ row: EventRow; link: 'caused_by' | 'settles' | null }> = [];
  let current: { row: EventRow; link: 'caused_by' | 'settles' | null } | null = { row: await eventAt(db, id), link: null };
  const seen = new Set<string>();
  while (current && chain.length < MAX_STEPS && !seen.has(current.row.event_id)) {
    seen.add(current.row.event_id);
    chain.push(current);
    const parent = await parentOf(db, current.row);
    current = parent ? { row: parent.row, link: parent.link } : null;
  }
  const payments = new Map<string, NonNullable<Awaited<ReturnType<typeof paymentOf>>>>();
  for (const { row } of chain) {
    const payment = await paymentOf(db, row);
    if (payment) payments.set(row.event_id, payment);
  }
  const memberIds = [...new Set([...chain.flatMap(({ row }) => membersNamedBy(row)), ...[...payments.values()].map((p) => p.member_id)])];
  const usernames = new Map(
    memberIds.length === 0 ? [] : (await db.selectFrom('members').select(['id', 'username']).where('id', 'in', memberIds).execute()).map((m) => [m.id, m.username] as const),
  );
  const steps: TraceStep[] = [];
  for (const [index, { row }] of chain.entries()) {
    const payment = payments.get(row.event_id);
    const amountKobo = amountOf(row) ?? payment?.amount_due_kobo ?? null;
    const paid = payment
      ? ` ${usernames.get(payment.member_id) ?? 'A member'}'s ${payment.purpose.replace(/_/g, ' ')} payment of ${formatNaira(payment.amount_due_kobo)} by ${METHOD_WORDS[payment.method] ?? payment.method}: ${payment.description}.`
      : '';
    const inputs = (row.data as { inputs?: unknown } | null)?.inputs;
    steps.push({
      event: toSummary(row),
      actor: await actorOf(db, row.metadata),
      // The link says how this step reaches the next one up (the one after it in the list).
      link: chain[index + 1]?.link ?? null,
      summary: `${describeEvent(row, usernames)}${paid}`,
      amount_kobo: amountKobo,
      amount: amountKobo === null ? null : koboToNaira(amountKobo),
      inputs: inputs && typeof inputs === 'object' && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : null,
    });
  }
  return { steps, root_reached: current === null };
}
