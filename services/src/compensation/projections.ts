import { type Transaction, sql } from 'kysely';
import { batchRange } from '../core/batch-range';
import type { Consumer } from '../core/consumers';
import { type EventMetadata, type RecordedEvent, type StreamAppend, appendToStreams } from '../core/event-store';
import { keyOwner, reserveKey } from '../core/unique-keys';
import type { Database } from '../database';
import type { MemberActivated, MemberPackageUpgraded, MemberRegistrationExpired } from '../membership/events';
import type { PackagePaymentDeclined } from '../payments/events';
import type { ProductPurchasePaid } from '../purchases/events';
import type { SettingsValues } from '../settings/values';
import { type BonusCause, type BonusHeld, type CompensationEvent, bonusEventTypes, bonusKey, walletStream } from './events';
import { type MemberAtCause, generationRowAt, generationTablesAt, memberAt, packagesAt, placementChildrenAt, settingsAt, sponsorChainAt } from './facts-at-cause';
import { activationBonuses, equilibriumBonus, repurchaseBonuses, settleHeldBonus, sponsorChainBonuses, type Upline } from './policies';
import { stockistBonusDeciders } from './stockist-bonuses';

type Trx = Transaction<Database>;

const asUpline = (m: MemberAtCause): Upline => ({ id: m.id, active: m.active, pendingPaymentId: m.pendingPaymentId, packageId: m.packageId });

/**
 * The bonuses a batch decided, appended together at its end by one appendToStreams: every wallet
 * stream's lock is then taken in one sorted statement, the order every multi-stream writer uses,
 * so this policy and a matching run paying the same wallets cannot deadlock (docs/event-store.md).
 */
export type BonusBook = StreamAppend[];

const metadataFor = (cause: RecordedEvent, actor = 'compensation'): EventMetadata => ({
  actor: { type: 'system', id: actor },
  now: cause.recordedAt,
  causation_id: cause.eventId,
  correlation_id: cause.metadata.correlation_id ?? cause.eventId,
});

/**
 * Enters each decision once in the book. A bonus's (cause, beneficiary, kind, generation) key is
 * reserved first, so a re-run of the same cause records nothing twice; a settlement of a held bonus
 * reserves the same key in a scope of its own. A held bonus is kept in held_bonuses until its
 * payment is decided, and settled at once when the log already holds that decision (a policy
 * running behind the one that settles holds).
 */
export async function bookBonuses(trx: Trx, book: BonusBook, decisions: readonly CompensationEvent[], cause: RecordedEvent, actor = 'compensation'): Promise<void> {
  for (const decision of decisions) {
    const key = bonusKey(decision.data);
    const settlement = decision.type !== 'BonusHeld' && decision.data.settles_hold !== undefined;
    if (!(await reserveKey(trx, settlement ? 'bonus-settlement' : 'bonus', key, cause.eventId))) continue;
    book.push({ streamId: walletStream(decision.data.beneficiary_id), events: [decision], metadata: metadataFor(cause, actor) });
    if (decision.type === 'BonusHeld') {
      await trx
        .insertInto('held_bonuses')
        .values({ bonus_key: key, beneficiary_id: decision.data.beneficiary_id, payment_id: decision.data.payment_id, decision: JSON.stringify(decision.data) })
        .onConflict((oc) => oc.column('bonus_key').doNothing())
        .execute();
      await settleIfAlreadyDecided(trx, book, decision.data, cause);
    }
  }
}

/** Appends the book's bonuses; call once, at the end of the batch. */
export async function appendBook(trx: Trx, book: BonusBook): Promise<void> {
  if (book.length === 0) return;
  await appendToStreams(trx, book, { metadata: book[0]!.metadata! });
}

type HoldOutcome = { approved: true } | { approved: false; reason: 'payment_declined' | 'registration_expired' };

/**
 * Settles a member's open held bonuses (of one payment, when given) with the decision `decidedBy`:
 * approved credits each with its cause's figures; declined or expired withholds it with the reason.
 */
async function settleHolds(trx: Trx, book: BonusBook, memberId: string, outcome: HoldOutcome, decidedBy: RecordedEvent, paymentId?: string): Promise<void> {
  let query = trx
    .updateTable('held_bonuses')
    .set({ resolution: outcome.approved ? 'credited' : 'withheld', resolved_by_event_id: decidedBy.eventId })
    .where('beneficiary_id', '=', memberId)
    .where('resolution', 'is', null);
  if (paymentId) query = query.where('payment_id', '=', paymentId);
  const settled = await query.returning(['bonus_key', 'decision']).execute();
  settled.sort((a, b) => (a.bonus_key < b.bonus_key ? -1 : 1));
  const decisions = settled.map((row) => settleHeldBonus(row.decision as BonusHeld['data'], outcome, decidedBy.eventId));
  await bookBonuses(trx, book, decisions, decidedBy);
}

/**
 * The first decision on a held bonus's payment recorded after its cause, if the log holds one yet:
 * the member's activation (approved), the payment declined, or the registration expired.
 */
async function settleIfAlreadyDecided(trx: Trx, book: BonusBook, held: BonusHeld['data'], cause: RecordedEvent): Promise<void> {
  const { rows } = await sql<{ type: string; event_id: string; recorded_at: Date; data: Record<string, unknown>; stream_id: string; transaction_id: string; global_position: number; stream_position: number }>`
    select e.type, e.event_id, e.recorded_at, e.data, e.stream_id, e.transaction_id::text as transaction_id, e.global_position, e.stream_position
    from events e
    where (e.transaction_id, e.global_position) > (${cause.transactionId}::xid8, ${cause.globalPosition}::bigint)
      and ((e.stream_id = ${`member-${held.beneficiary_id}`} and e.type in ('MemberActivated', 'MemberRegistrationExpired'))
        or (e.stream_id = ${`package-payment-${held.payment_id}`} and e.type = 'PackagePaymentDeclined'))
    order by e.transaction_id, e.global_position limit 1`.execute(trx);
  const decision = rows[0];
  if (!decision) return;
  const decidedBy = { eventId: decision.event_id, recordedAt: new Date(decision.recorded_at).toISOString(), metadata: { correlation_id: null } } as unknown as RecordedEvent;
  const outcome: HoldOutcome =
    decision.type === 'MemberActivated' ? { approved: true } : { approved: false, reason: decision.type === 'PackagePaymentDeclined' ? 'payment_declined' : 'registration_expired' };
  await settleHolds(trx, book, held.beneficiary_id, outcome, decidedBy, outcome.approved ? undefined : held.payment_id);
}

function causeOf(event: RecordedEvent, memberId: string): BonusCause {
  return { event_id: event.eventId, event_type: event.type, stream_id: event.streamId, member_id: memberId };
}

/** Equilibrium for a member, decided once in its life (the key is the member, not the cause), on the facts at the cause. */
async function equilibriumFor(trx: Trx, memberId: string, cause: RecordedEvent, settings: SettingsValues): Promise<CompensationEvent[]> {
  const member = await memberAt(trx, memberId, cause);
  if (!member) return [];
  const alreadyDecided = (await keyOwner(trx, 'equilibrium', memberId)) !== null;
  const children = await placementChildrenAt(trx, memberId, cause);
  const registrationValueKobo = (await packagesAt(trx, cause)).get(member.packageId)?.registration_value_kobo ?? 0;
  const decisions = equilibriumBonus({
    // The cause's member is whoever's activation completed the two legs, not the beneficiary.
    cause: causeOf(cause, (cause.data as { member_id: string }).member_id),
    member: { id: member.id, active: member.active, pendingPaymentId: member.pendingPaymentId, registrationValueKobo },
    children: children.map((c) => ({ id: c.id, active: c.active })),
    alreadyDecided,
    settings,
  });
  if (decisions.length > 0) await reserveKey(trx, 'equilibrium', memberId, cause.eventId);
  return decisions;
}

/** Activation of X (BUSINESS-RULES.md §3): referral, placement, welcome, and equilibrium for X's placement parent and X. */
async function activationDecisions(trx: Trx, event: RecordedEvent<MemberActivated>, member: MemberAtCause, settings: SettingsValues): Promise<CompensationEvent[]> {
  const packageId = event.data.package_id;
  const placementParent = member.placementParentId ? await memberAt(trx, member.placementParentId, event) : undefined;
  return [
    ...activationBonuses({
      cause: causeOf(event, member.id),
      member: { id: member.id, sponsorId: member.sponsorId },
      packageId,
      registrationValueKobo: event.data.registration_value_kobo ?? 0,
      referralPercentages: await generationRowAt(trx, 'referral', packageId, event),
      sponsorChain: (await sponsorChainAt(trx, member.id, event)).map(asUpline),
      placementParent: placementParent ? asUpline(placementParent) : null,
      settings,
    }),
    ...(member.placementParentId ? await equilibriumFor(trx, member.placementParentId, event, settings) : []),
    ...(await equilibriumFor(trx, member.id, event, settings)),
  ];
}

/** A paid repurchase (BUSINESS-RULES.md §3): repurchase, unilevel and loyalty, V = the purchase's total price. */
async function repurchaseDecisions(trx: Trx, event: RecordedEvent<ProductPurchasePaid>, member: MemberAtCause, settings: SettingsValues): Promise<CompensationEvent[]> {
  const parentChildren = member.placementParentId ? (await placementChildrenAt(trx, member.placementParentId, event)).length : null;
  return repurchaseBonuses({
    cause: causeOf(event, member.id),
    member: { id: member.id, active: member.active },
    valueKobo: event.data.total_price_kobo,
    sponsorChain: (await sponsorChainAt(trx, member.id, event)).map(asUpline),
    unilevelTables: await generationTablesAt(trx, 'unilevel', event),
    placementParentChildren: parentChildren,
    settings,
  });
}

type CompensationCause = MemberActivated | MemberPackageUpgraded | ProductPurchasePaid | PackagePaymentDeclined | MemberRegistrationExpired;

/** One cause's bonuses, decided on the facts as they stood when it was recorded (facts-at-cause.ts). */
async function decide(trx: Trx, book: BonusBook, recorded: RecordedEvent): Promise<void> {
  const event = recorded as RecordedEvent<CompensationCause>;
  switch (event.type) {
    case 'PackagePaymentDeclined': {
      const payment = await trx.selectFrom('package_payments').select(['member_id', 'purpose']).where('id', '=', event.data.payment_id).executeTakeFirst();
      if (payment?.purpose === 'registration') await settleHolds(trx, book, payment.member_id, { approved: false, reason: 'payment_declined' }, recorded, event.data.payment_id);
      return;
    }
    case 'MemberRegistrationExpired':
      await settleHolds(trx, book, event.data.member_id, { approved: false, reason: 'registration_expired' }, recorded);
      return;
    default:
      break;
  }
  const member = await memberAt(trx, event.data.member_id, recorded);
  if (!member) return;
  const settings = await settingsAt(trx, recorded);
  if (event.type === 'MemberActivated') {
    // Bonuses held for X while X's own registration payment awaited approval are credited now.
    await settleHolds(trx, book, member.id, { approved: true }, recorded);
    // The company root is active from the start without a payment: nothing was paid, nothing is shared.
    if (!event.data.payment_id) return;
    await bookBonuses(trx, book, await activationDecisions(trx, event as RecordedEvent<MemberActivated>, member, settings), recorded);
  } else if (event.type === 'ProductPurchasePaid') {
    // Registration and upgrade pick-ups were paid with the package: only a repurchase pays bonuses.
    if (event.data.pickup_type !== 'repurchase_pickup') return;
    await bookBonuses(trx, book, await repurchaseDecisions(trx, event as RecordedEvent<ProductPurchasePaid>, member, settings), recorded);
  } else {
    const decisions = sponsorChainBonuses({
      kind: 'upgrade',
      cause: causeOf(recorded, member.id),
      baseKobo: event.data.difference_kobo,
      percentages: await generationRowAt(trx, 'upgrade', event.data.to_package_id, recorded),
      sponsorChain: (await sponsorChainAt(trx, member.id, recorded)).map(asUpline),
      packageId: event.data.to_package_id,
    });
    await bookBonuses(trx, book, decisions, recorded);
  }
}

/**
 * The compensation policy (BUSINESS-RULES.md §3) for activations, upgrades and paid repurchases,
 * and the settling of held bonuses when a registration payment is approved, declined or expires.
 * Every fact is read as it stood when the cause was recorded, however late this runs.
 */
export const compensationPolicy: Consumer = {
  name: 'compensation',
  kind: 'policy',
  eventTypes: ['MemberActivated', 'MemberPackageUpgraded', 'ProductPurchasePaid', 'PackagePaymentDeclined', 'MemberRegistrationExpired', ...Object.keys(stockistBonusDeciders)],
  appends: bonusEventTypes,
  batchSize: 50,
  async apply(trx, events) {
    const book: BonusBook = [];
    for (const recorded of events) {
      // Stockist bonuses (signee, stockist upline, rebate): decided from the cause event's own facts (stockist-bonuses.ts).
      const stockistDecider = stockistBonusDeciders[recorded.type];
      if (stockistDecider) await bookBonuses(trx, book, await stockistDecider(trx, recorded), recorded);
      else await decide(trx, book, recorded);
    }
    await appendBook(trx, book);
  },
};

/**
 * The wallet ledger: every credited or withheld bonus as a row, and each member's totals
 * (BUSINESS-RULES.md §4: balance = credits − withdrawals − wallet payments; a failed withdrawal's
 * money comes back). Rebuildable from the log. Set-based inside PostgreSQL: the runner hands over the
 * batch's positions (applyAt) and one statement reads those events, inserts their lines and adds
 * the totals, so a bonus run's million events never cross into the process.
 */
export const walletLedgerProjection: Consumer = {
  name: 'wallet-ledger',
  kind: 'projection',
  eventTypes: ['BonusCredited', 'BonusWithheld', 'BonusHeld', 'WithdrawalRequested', 'WithdrawalFailed', 'WalletPaymentMade'],
  tables: ['wallet_entries', 'wallets', 'daily_bonus_totals'],
  // A batch is one statement in PostgreSQL whatever its size: 5,000 events a transaction spread the
  // runner's own round trips (lock, positions, checkpoint, commit) over five times the rows.
  batchSize: 5000,
  apply: (trx, events) => projectWalletLedgerAt(trx, events.map((recorded) => recorded.globalPosition)),
  applyAt: (trx, positions) => projectWalletLedgerAt(trx, positions),
};

/**
 * The wallet ledger for the events at `positions` (in commit order; other types are ignored).
 * A bonus line is keyed by its event's global position and inserted once; the bonus part of the
 * totals is summed from the events whose line was not in the table yet, so a bonus event delivered
 * twice changes nothing the second time. Withdrawals and wallet payments have no line
 * and are added as they come (the runner applies each batch once: its checkpoint commits with it).
 * A member's updated_at is the recorded_at of their last event in the batch, in commit order.
 */
export async function projectWalletLedgerAt(trx: Trx, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  const { rows } = await sql<{ settled: number }>`
    with batch as (
      -- line: a bonus event whose line is not in the table yet (as of this statement's start; the
      -- consumer's lock keeps any other writer of the table out), so its totals are added once.
      select e.global_position, e.type, e.data, e.recorded_at, b.ord,
        e.type in ('BonusCredited', 'BonusWithheld', 'BonusHeld')
          and not exists (select 1 from wallet_entries w where w.global_position = e.global_position) as line
      from unnest(${sql.val(positions)}::bigint[]) with ordinality as b(global_position, ord)
      join events e on e.global_position = b.global_position and ${batchRange(positions, 'e.global_position')}
      where e.type in ('BonusCredited', 'BonusWithheld', 'BonusHeld', 'WithdrawalRequested', 'WithdrawalFailed', 'WalletPaymentMade')
    ),
    lines as (
      insert into wallet_entries (global_position, member_id, entry, settles_hold, kind, amount, generation, reason, cause_event_id, cause_type, cause_member_id, inputs, recorded_at)
      select global_position, (data->>'beneficiary_id')::uuid,
        case type when 'BonusCredited' then 'credited' when 'BonusWithheld' then 'withheld' else 'held' end,
        data ? 'settles_hold', data->>'kind', (data->>'amount_kobo')::bigint, (data->>'generation')::int,
        case when type = 'BonusWithheld' then data->>'reason' end,
        (data->'cause'->>'event_id')::uuid, data->'cause'->>'event_type', (data->'cause'->>'member_id')::uuid, data->'inputs', recorded_at
      from batch where line
      on conflict (global_position) do nothing
      returning settles_hold
    ),
    days as (
      -- The admin dashboard's totals: credited bonuses per company day and kind, from the same lines.
      insert into daily_bonus_totals (day, kind, credited_kobo, credited_count)
      select (recorded_at at time zone 'Africa/Lagos')::date, data->>'kind', sum((data->>'amount_kobo')::bigint), count(*)
      from batch where line and type = 'BonusCredited'
      group by 1, 2
      on conflict (day, kind) do update set
        credited_kobo = daily_bonus_totals.credited_kobo + excluded.credited_kobo,
        credited_count = daily_bonus_totals.credited_count + excluded.credited_count
      returning 1
    ),
    changes as (
      -- Summed from the batch itself, not joined to lines' RETURNING (a join of two CTEs the
      -- planner takes for one row each became a nested loop of 1,000 × 1,000).
      select (data->>'beneficiary_id')::uuid as member_id, ord, recorded_at,
        case when type = 'BonusCredited' then (data->>'amount_kobo')::bigint else 0 end as bonus,
        case when type = 'BonusWithheld' then (data->>'amount_kobo')::bigint else 0 end as withheld,
        case when type = 'BonusHeld' then (data->>'amount_kobo')::bigint when data ? 'settles_hold' then -(data->>'amount_kobo')::bigint else 0 end as held,
        0::bigint as withdrawn, 0::bigint as spent,
        case when type = 'BonusCredited' then (data->>'amount_kobo')::bigint else 0 end as balance
      from batch where line
      union all
      select (data->>'member_id')::uuid, ord, recorded_at, 0, 0, 0,
        case type when 'WithdrawalRequested' then (data->>'amount_kobo')::bigint when 'WithdrawalFailed' then -(data->>'returned_kobo')::bigint else 0 end,
        case when type = 'WalletPaymentMade' then (data->>'amount_kobo')::bigint else 0 end,
        case type when 'WithdrawalRequested' then -(data->>'amount_kobo')::bigint when 'WithdrawalFailed' then (data->>'returned_kobo')::bigint
          else -(data->>'amount_kobo')::bigint end
      from batch where type in ('WithdrawalRequested', 'WithdrawalFailed', 'WalletPaymentMade')
    ),
    totals as (
      select member_id, sum(bonus)::bigint as bonus, sum(withheld)::bigint as withheld, sum(held)::bigint as held, sum(withdrawn)::bigint as withdrawn,
        sum(spent)::bigint as spent, sum(balance)::bigint as balance, (array_agg(recorded_at order by ord desc))[1] as at
      from changes group by member_id
    ),
    upserted as (
      insert into wallets (member_id, total_bonus, total_withheld, total_held, total_withdrawn, total_spent, balance, updated_at)
      select member_id, bonus, withheld, held, withdrawn, spent, balance, at from totals
      on conflict (member_id) do update set
        total_bonus = wallets.total_bonus + excluded.total_bonus,
        total_withheld = wallets.total_withheld + excluded.total_withheld,
        total_held = wallets.total_held + excluded.total_held,
        total_withdrawn = wallets.total_withdrawn + excluded.total_withdrawn,
        total_spent = wallets.total_spent + excluded.total_spent,
        balance = wallets.balance + excluded.balance,
        updated_at = excluded.updated_at
      returning 1
    )
    select (select count(*) from lines where settles_hold)::int as settled, (select count(*) from upserted)::int as wallets, (select count(*) from days)::int as days`.execute(trx);
  if (!rows[0] || rows[0].settled === 0) return;
  // A settled hold: its held line says how it ended (the settling line carries the same key). A
  // second statement, so that it sees a held line inserted by the first (same batch).
  await sql`
    update wallet_entries w set resolution = s.entry
    from wallet_entries s
    where s.global_position = any(${sql.val(positions)}::bigint[]) and s.settles_hold
      and w.member_id = s.member_id and w.cause_event_id = s.cause_event_id and w.kind = s.kind
      and coalesce(w.generation, 0) = coalesce(s.generation, 0) and w.entry = 'held'`.execute(trx);
}

/**
 * held_bonuses from the log (the `held-bonuses` read model, read-models.ts): the compensation
 * policy writes a row in the same transaction that appends its BonusHeld, and resolves it in the
 * one that appends the settling BonusCredited / BonusWithheld (`settles_hold`), so the table is
 * exactly what these events say, at every commit, and rebuilds like an inline read model.
 */
export async function projectHeldBonuses(trx: Trx, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    if (recorded.type === 'BonusHeld') {
      const held = (recorded as RecordedEvent<BonusHeld>).data;
      await trx
        .insertInto('held_bonuses')
        .values({ bonus_key: bonusKey(held), beneficiary_id: held.beneficiary_id, payment_id: held.payment_id, decision: JSON.stringify(held) })
        .onConflict((oc) => oc.column('bonus_key').doNothing())
        .execute();
      continue;
    }
    if (recorded.type !== 'BonusCredited' && recorded.type !== 'BonusWithheld') continue;
    const settlement = (recorded as RecordedEvent<CompensationEvent>).data as CompensationEvent['data'] & { settles_hold?: { decided_by_event_id: string } };
    if (!settlement.settles_hold) continue;
    await trx
      .updateTable('held_bonuses')
      .set({ resolution: recorded.type === 'BonusCredited' ? 'credited' : 'withheld', resolved_by_event_id: settlement.settles_hold.decided_by_event_id })
      .where('bonus_key', '=', bonusKey(settlement))
      .where('resolution', 'is', null)
      .execute();
  }
}

/** bonusKey in SQL, over an event's data. */
const bonusKeySql = sql`(e.data->'cause'->>'event_id') || ':' || (e.data->>'beneficiary_id') || ':' || (e.data->>'kind') || ':' || coalesce(e.data->>'generation', '0')`;

/**
 * projectHeldBonuses a batch at a time, inside PostgreSQL (rebuilds: the events named by position,
 * in commit order, never cross into the process; the `held-bonuses` read model's applyAt). Most of
 * its events (credits settling no hold) write nothing, and here they are only read. Leaves what the
 * events applied one by one leave (held-bonuses-batch.property.int.spec.ts):
 * - a key's first BonusHeld of the batch inserts its row, unless the row is there (do nothing);
 * - a settlement resolves an unresolved row that is there when it comes: one from before the
 *   batch, or one the batch inserted at an earlier event; the first such settlement of a key wins
 *   (later ones find it resolved). Settlements before their hold's insert resolve nothing.
 */
export async function projectHeldBonusesAt(trx: Trx, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  const batch = sql`
    select p.ord, e.type, e.data, ${bonusKeySql} as key
    from unnest(${sql.val(positions)}::bigint[]) with ordinality as p(position, ord)
    join events e on e.global_position = p.position and ${batchRange(positions, 'e.global_position')}`;
  const { rows: inserted } = await sql<{ key: string; ord: string }>`
    with batch as (${batch} where e.type = 'BonusHeld'),
    first as (select distinct on (key) * from batch order by key, ord),
    inserted as (
      insert into held_bonuses (bonus_key, beneficiary_id, payment_id, decision)
      select key, (data->>'beneficiary_id')::uuid, (data->>'payment_id')::uuid, data from first order by ord
      on conflict (bonus_key) do nothing
      returning bonus_key
    )
    select i.bonus_key as key, f.ord::text as ord from inserted i join first f on f.key = i.bonus_key`.execute(trx);
  await sql`
    with batch as (${batch} where e.type in ('BonusCredited', 'BonusWithheld') and e.data->'settles_hold' is not null and e.data->'settles_hold' <> 'null'::jsonb),
    inserted as (select * from unnest(${sql.val(inserted.map((r) => r.key))}::text[], ${sql.val(inserted.map((r) => r.ord))}::bigint[]) as i(key, ord)),
    first as (
      select distinct on (b.key) b.key, b.type, b.data from batch b
      where not exists (select 1 from inserted i where i.key = b.key and i.ord > b.ord)
      order by b.key, b.ord
    )
    update held_bonuses h set
      resolution = case when f.type = 'BonusCredited' then 'credited' else 'withheld' end,
      resolved_by_event_id = (f.data->'settles_hold'->>'decided_by_event_id')::uuid
    from first f
    where h.bonus_key = f.key and h.resolution is null`.execute(trx);
}
