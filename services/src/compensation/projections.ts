import { type Transaction, sql } from 'kysely';
import type { Consumer } from '../core/consumers';
import { type EventMetadata, type RecordedEvent, appendToStream } from '../core/event-store';
import { keyOwner, reserveKey } from '../core/unique-keys';
import type { Database } from '../database';
import type { MemberActivated, MemberPackageUpgraded } from '../membership/events';
import { getSettings } from '../settings/projections';
import { bonusPercentages, bonusPercentagesByPackage } from '../settings/queries';
import type { ProductPurchasePaid } from '../purchases/events';
import { type BonusCause, type CompensationEvent, bonusKey, walletStream } from './events';
import type { WalletEvent } from '../wallet/events';
import { stockistBonusDeciders } from './stockist-bonuses';
import { activationBonuses, equilibriumBonus, repurchaseBonuses, sponsorChainBonuses, type Upline } from './policies';

type Trx = Transaction<Database>;

/**
 * Whether a member was active when the cause happened (`at` is the cause's time), not when the
 * worker gets to it: a worker running behind must not pay an upline activated after the cause,
 * nor pair an equilibrium with a child that joined later. Live runs and replays then agree.
 */
const activeAt = (alias: string, at: string) =>
  sql<boolean>`(${sql.ref(`${alias}.activated_at`)} is not null and ${sql.ref(`${alias}.activated_at`)} <= ${at}::timestamptz and not ${sql.ref(`${alias}.deactivated`)})`;

/** The sponsor chain of a member, generation 1 (the sponsor) to 10, with activity at `at` and package. */
async function sponsorChain(trx: Trx, memberId: string, at: string): Promise<Upline[]> {
  const { rows } = await sql<{ id: string; active: boolean; package_id: number }>`
    with recursive chain(id, generation) as (
      select sponsor_id, 1 from members where id = ${memberId} and sponsor_id is not null
      union all
      select m.sponsor_id, chain.generation + 1 from members m join chain on m.id = chain.id
      where chain.generation < 10 and m.sponsor_id is not null
    )
    select m.id, ${activeAt('m', at)} as active, m.package_id
    from chain join members m on m.id = chain.id order by chain.generation`.execute(trx);
  return rows.map((r) => ({ id: r.id, active: r.active, packageId: r.package_id }));
}

async function memberFacts(trx: Trx, memberId: string, at: string) {
  return trx
    .selectFrom('members as m')
    .leftJoin('packages as p', 'p.id', 'm.package_id')
    .select(['m.id', 'm.sponsor_id', 'm.placement_parent_id', 'm.package_id', 'p.registration_value'])
    .select(activeAt('m', at).as('active'))
    .where('m.id', '=', memberId)
    .executeTakeFirst();
}

/** The placement children a member had at `at` (registered by then), with their activity then. */
async function placementChildren(trx: Trx, memberId: string, at: string) {
  return trx
    .selectFrom('members as m')
    .select(['m.id', 'm.placement_leg'])
    .select(activeAt('m', at).as('active'))
    .where('m.placement_parent_id', '=', memberId)
    .where('m.created_at', '<=', new Date(at))
    .orderBy('placement_leg')
    .execute();
}

/**
 * Records each decided bonus once on the beneficiary's wallet stream. The (cause, beneficiary,
 * kind, generation) key is reserved first, so a re-run of the same cause pays nothing twice.
 * Wallet streams are appended under a per-stream lock: withdrawals decide on the same streams.
 */
export async function recordBonuses(trx: Trx, decisions: readonly CompensationEvent[], cause: RecordedEvent, now: string): Promise<void> {
  for (const decision of decisions) {
    if (!(await reserveKey(trx, 'bonus', bonusKey(decision.data), cause.eventId))) continue;
    const stream = walletStream(decision.data.beneficiary_id);
    await sql`select pg_advisory_xact_lock(hashtextextended(${`stream:${stream}`}, 0))`.execute(trx);
    const metadata: EventMetadata = {
      actor: { type: 'system', id: 'compensation' },
      now,
      causation_id: cause.eventId,
      correlation_id: cause.metadata.correlation_id ?? cause.eventId,
    };
    await appendToStream(trx, stream, [decision], { expectedVersion: 'any', metadata });
  }
}

function causeOf(event: RecordedEvent, memberId: string): BonusCause {
  return { event_id: event.eventId, event_type: event.type, stream_id: event.streamId, member_id: memberId };
}

/** Equilibrium for a member, decided once in its life (the key is the member, not the cause). */
async function equilibriumFor(trx: Trx, memberId: string, cause: BonusCause, settings: Awaited<ReturnType<typeof getSettings>>, at: string): Promise<CompensationEvent[]> {
  const member = await memberFacts(trx, memberId, at);
  if (!member) return [];
  const alreadyDecided = (await keyOwner(trx, 'equilibrium', memberId)) !== null;
  const children = await placementChildren(trx, memberId, at);
  const decisions = equilibriumBonus({
    cause,
    member: { id: member.id, active: member.active, registrationValueKobo: member.registration_value ?? 0 },
    children: children.map((c) => ({ id: c.id, active: c.active })),
    alreadyDecided,
    settings,
  });
  if (decisions.length > 0) await reserveKey(trx, 'equilibrium', memberId, cause.event_id);
  return decisions;
}

/** A paid repurchase (BUSINESS-RULES.md §3): repurchase, unilevel and loyalty, V = the purchase's total price. */
async function repurchaseDecisions(trx: Trx, event: RecordedEvent<ProductPurchasePaid>, cause: BonusCause, member: { id: string; active: boolean; placement_parent_id: string | null }, settings: Awaited<ReturnType<typeof getSettings>>): Promise<CompensationEvent[]> {
  const at = event.recordedAt;
  const parentChildren = member.placement_parent_id ? (await placementChildren(trx, member.placement_parent_id, at)).length : null;
  return repurchaseBonuses({
    cause,
    member: { id: member.id, active: member.active },
    valueKobo: event.data.total_price_kobo,
    sponsorChain: await sponsorChain(trx, member.id, at),
    unilevelTables: await bonusPercentagesByPackage(trx, 'unilevel'),
    placementParentChildren: parentChildren,
    settings,
  });
}

/**
 * The compensation policy (BUSINESS-RULES.md §3) for activations, upgrades and paid repurchases:
 * reads the network as it was when the cause happened, decides with the pure policies, records
 * the results.
 */
export const compensationPolicy: Consumer = {
  name: 'compensation',
  kind: 'policy',
  eventTypes: ['MemberActivated', 'MemberPackageUpgraded', 'ProductPurchasePaid', ...Object.keys(stockistBonusDeciders)],
  batchSize: 50,
  async apply(trx, events) {
    const settings = await getSettings(trx);
    for (const recorded of events) {
      // Stockist bonuses (signee, stockist upline, rebate): decided from the cause event's own facts (stockist-bonuses.ts).
      const stockistDecider = stockistBonusDeciders[recorded.type];
      if (stockistDecider) {
        await recordBonuses(trx, await stockistDecider(trx, recorded), recorded, recorded.recordedAt);
        continue;
      }
      const event = recorded as RecordedEvent<MemberActivated | MemberPackageUpgraded | ProductPurchasePaid>;
      const memberId = event.data.member_id;
      const cause = causeOf(recorded, memberId);
      const at = recorded.recordedAt;
      const member = await memberFacts(trx, memberId, at);
      if (!member) continue;
      if (event.type === 'MemberActivated') {
        // The company root is active from the start without a payment: nothing was paid, nothing is shared.
        if (!event.data.payment_id) continue;
        const packageId = event.data.package_id;
        const placementParent = member.placement_parent_id ? await memberFacts(trx, member.placement_parent_id, at) : undefined;
        const decisions = [
          ...activationBonuses({
            cause,
            member: { id: memberId, sponsorId: member.sponsor_id },
            packageId,
            registrationValueKobo: event.data.registration_value_kobo ?? 0,
            referralPercentages: await bonusPercentages(trx, 'referral', packageId),
            sponsorChain: await sponsorChain(trx, memberId, at),
            placementParent: placementParent ? { id: placementParent.id, active: placementParent.active } : null,
            settings,
          }),
          ...(member.placement_parent_id ? await equilibriumFor(trx, member.placement_parent_id, cause, settings, at) : []),
          ...(await equilibriumFor(trx, memberId, cause, settings, at)),
        ];
        await recordBonuses(trx, decisions, recorded, recorded.recordedAt);
      } else if (event.type === 'ProductPurchasePaid') {
        // Registration and upgrade pick-ups were paid with the package: only a repurchase pays bonuses.
        if (event.data.pickup_type !== 'repurchase_pickup') continue;
        await recordBonuses(trx, await repurchaseDecisions(trx, event, cause, member, settings), recorded, recorded.recordedAt);
      } else {
        const decisions = sponsorChainBonuses({
          kind: 'upgrade',
          cause,
          baseKobo: event.data.difference_kobo,
          percentages: await bonusPercentages(trx, 'upgrade', event.data.to_package_id),
          sponsorChain: await sponsorChain(trx, memberId, at),
          packageId: event.data.to_package_id,
        });
        await recordBonuses(trx, decisions, recorded, recorded.recordedAt);
      }
    }
  },
};

/**
 * The wallet ledger: every credited or withheld bonus as a row, and each member's totals
 * (BUSINESS-RULES.md §4: balance = credits − withdrawals − wallet payments; a failed withdrawal's
 * money comes back). Rebuildable from the log; set-based per batch.
 */
export const walletLedgerProjection: Consumer = {
  name: 'wallet-ledger',
  kind: 'projection',
  eventTypes: ['BonusCredited', 'BonusWithheld', 'WithdrawalRequested', 'WithdrawalFailed', 'WalletPaymentMade'],
  tables: ['wallet_entries', 'wallets'],
  batchSize: 1000,
  async apply(trx, events) {
    const bonusEvents = events.filter((recorded) => recorded.type === 'BonusCredited' || recorded.type === 'BonusWithheld');
    const rows = bonusEvents.map((recorded) => {
      const event = recorded as RecordedEvent<CompensationEvent>;
      const d = event.data;
      return {
        global_position: recorded.globalPosition,
        member_id: d.beneficiary_id,
        entry: event.type === 'BonusCredited' ? ('credited' as const) : ('withheld' as const),
        kind: d.kind,
        amount: d.amount_kobo,
        generation: d.generation,
        reason: event.type === 'BonusWithheld' ? event.data.reason : null,
        cause_event_id: d.cause.event_id,
        cause_type: d.cause.event_type,
        cause_member_id: d.cause.member_id,
        inputs: JSON.stringify(d.inputs),
        recorded_at: new Date(recorded.recordedAt),
      };
    });
    if (rows.length > 0) {
      await trx.insertInto('wallet_entries').values(rows).onConflict((oc) => oc.column('global_position').doNothing()).execute();
    }
    type Totals = { bonus: number; withheld: number; withdrawn: number; spent: number; balance: number; at: string };
    const totals = new Map<string, Totals>();
    const add = (memberId: string, at: string, change: Partial<Omit<Totals, 'at'>>) => {
      const total = totals.get(memberId) ?? { bonus: 0, withheld: 0, withdrawn: 0, spent: 0, balance: 0, at };
      for (const [key, value] of Object.entries(change) as Array<[keyof Omit<Totals, 'at'>, number]>) total[key] += value;
      total.at = at;
      totals.set(memberId, total);
    };
    for (const recorded of events) {
      const event = recorded as RecordedEvent<CompensationEvent | WalletEvent>;
      const at = recorded.recordedAt;
      switch (event.type) {
        case 'BonusCredited':
          add(event.data.beneficiary_id, at, { bonus: event.data.amount_kobo, balance: event.data.amount_kobo });
          break;
        case 'BonusWithheld':
          add(event.data.beneficiary_id, at, { withheld: event.data.amount_kobo });
          break;
        case 'WithdrawalRequested':
          add(event.data.member_id, at, { withdrawn: event.data.amount_kobo, balance: -event.data.amount_kobo });
          break;
        case 'WithdrawalFailed':
          add(event.data.member_id, at, { withdrawn: -event.data.returned_kobo, balance: event.data.returned_kobo });
          break;
        case 'WalletPaymentMade':
          add(event.data.member_id, at, { spent: event.data.amount_kobo, balance: -event.data.amount_kobo });
          break;
        default:
          break;
      }
    }
    if (totals.size === 0) return;
    const list = [...totals.entries()];
    const column = (pick: (t: Totals) => number) => sql.val(list.map(([, t]) => pick(t)));
    await sql`
      insert into wallets (member_id, total_bonus, total_withheld, total_withdrawn, total_spent, balance, updated_at)
      select member_id, bonus, withheld, withdrawn, spent, balance, at
      from unnest(${sql.val(list.map(([id]) => id))}::uuid[], ${column((t) => t.bonus)}::bigint[], ${column((t) => t.withheld)}::bigint[],
                  ${column((t) => t.withdrawn)}::bigint[], ${column((t) => t.spent)}::bigint[], ${column((t) => t.balance)}::bigint[],
                  ${sql.val(list.map(([, t]) => t.at))}::timestamptz[])
        as t(member_id, bonus, withheld, withdrawn, spent, balance, at)
      on conflict (member_id) do update set
        total_bonus = wallets.total_bonus + excluded.total_bonus,
        total_withheld = wallets.total_withheld + excluded.total_withheld,
        total_withdrawn = wallets.total_withdrawn + excluded.total_withdrawn,
        total_spent = wallets.total_spent + excluded.total_spent,
        balance = wallets.balance + excluded.balance,
        updated_at = excluded.updated_at`.execute(trx);
  },
};
