import { type Transaction, sql } from 'kysely';
import { type BonusCause, type BonusCredited, bonusEventTypes, bonusKey, walletStream } from '../compensation/events';
import type { Consumer } from '../core/consumers';
import { memberFactBy, membersAt } from '../compensation/facts-at-cause';
import type { Executor } from '../core/db';
import { type EventMetadata, type LogPosition, type RecordedEvent, appendToStreams } from '../core/event-store';
import type { Database } from '../database';
import { companyDate } from '../wallet/payout-schedule';
import type { GlobalProfitShared, ProfitSharingEvent } from './events';
import { type GlobalProfitMember, type ProfitPoolCandidate, globalProfitShares, profitPoolShares } from './policies';

type Trx = Transaction<Database>;

/**
 * The members a global profit share is among: active, holding a rank that is global-profit
 * eligible (member_points, kept by the points policy), with their CPV. The company root is left
 * out: its wallet is the company's own, and what the company keeps needs no bonus. Given the
 * share's position (the points policy pays the share where it reaches it in the log, so CPV and
 * ranks are those standing then), activity is judged there too; without it, as things stand now
 * (the dashboard's flag).
 */
export async function globalProfitMembers(db: Executor, at?: LogPosition): Promise<GlobalProfitMember[]> {
  const active = at ? memberFactBy('m', 'activated', at) : sql<boolean>`(m.activated_at is not null and not m.deactivated)`;
  const { rows } = await sql<{ id: string; cpv: string }>`
    select m.id, p.cpv::text as cpv
    from member_points p
    join ranks r on r.id = p.rank_id and r.is_global_profit_eligible
    join members m on m.id = p.member_id
    where ${active} and not m.is_root
    order by m.id`.execute(db);
  return rows.map((r) => ({ id: r.id, cpv: Number(r.cpv) }));
}

/**
 * The members on the profit-pool package with what the criteria look at; policies.ts decides who
 * qualifies. `memberId` narrows it to one member (the dashboard flag).
 */
export async function profitPoolCandidates(db: Executor, packageId: number, memberId?: string, at?: LogPosition): Promise<ProfitPoolCandidate[]> {
  // Given the run's position: activity, sponsored downlines and the package as they stood at the run.
  const activeSql = (alias: string) => (at ? memberFactBy(alias, 'activated', at) : sql<boolean>`(${sql.ref(`${alias}.activated_at`)} is not null and not ${sql.ref(`${alias}.deactivated`)})`);
  const packageKnown = at ? memberFactBy('m', 'package', at) : sql<boolean>`true`;
  const { rows } = await sql<{ id: string; package_id: number; active: boolean; activated_at: Date | null; active_sponsored: number; package_known: boolean }>`
    select m.id, m.package_id, ${activeSql('m')} as active, m.activated_at, ${packageKnown} as package_known,
      (select count(*)::int from members d where d.sponsor_id = m.id and ${activeSql('d')}) as active_sponsored
    from members m
    where ${activeSql('m')} and not m.is_root and (m.package_id = ${packageId} or not ${packageKnown})
      ${memberId ? sql`and m.id = ${memberId}` : sql``}
    order by m.id`.execute(db);
  // The few whose package changed after the run: their package then.
  const then = at ? await membersAt(db, rows.filter((r) => !r.package_known).map((r) => r.id), at) : new Map();
  return rows
    .map((r) => ({ id: r.id, package_id: then.get(r.id)?.packageId ?? r.package_id, active: r.active, activated_on: r.activated_at ? companyDate(r.activated_at) : null, active_sponsored: r.active_sponsored }))
    .filter((c) => c.package_id === packageId);
}

/**
 * Records each share once, keyed by (run, member, kind) (compensation/events.ts bonusKey: the
 * run's event is the cause), in a few round trips: one insert reserves every key, one bulk append
 * writes the wallets (under each wallet stream's lock, as withdrawals take it).
 */
async function recordShares(trx: Trx, decisions: readonly BonusCredited[], cause: RecordedEvent): Promise<void> {
  if (decisions.length === 0) return;
  const keys = decisions.map((d) => bonusKey(d.data));
  const { rows } = await sql<{ key: string }>`
    insert into unique_keys (scope, key, owner)
    select 'bonus', key, ${cause.eventId} from unnest(${sql.val(keys)}::text[]) as k(key)
    on conflict do nothing returning key`.execute(trx);
  const reserved = new Set(rows.map((r) => r.key));
  const fresh = decisions.filter((d) => reserved.has(bonusKey(d.data)));
  const metadata: EventMetadata = {
    actor: { type: 'system', id: 'profit-sharing' },
    now: cause.recordedAt,
    causation_id: cause.eventId,
    correlation_id: cause.metadata.correlation_id ?? cause.eventId,
  };
  await appendToStreams(trx, fresh.map((d) => ({ streamId: walletStream(d.data.beneficiary_id), events: [d] })), { metadata });
}

/**
 * Pays a global profit share (BUSINESS-RULES.md §3) among the members eligible at the share: called
 * by the `points` policy when it reaches the share in the log, so CPV and ranks are those standing
 * then, however late the worker runs (docs/money-as-of-cause.md).
 */
export async function payGlobalProfit(trx: Trx, recorded: RecordedEvent<GlobalProfitShared>): Promise<void> {
  const cause: BonusCause = { event_id: recorded.eventId, event_type: recorded.type, stream_id: recorded.streamId, member_id: null };
  const decisions = globalProfitShares({ cause, ...recorded.data, members: await globalProfitMembers(trx, recorded) });
  await recordShares(trx, decisions, recorded);
}

/**
 * Pays the profit pool (BUSINESS-RULES.md §3) among the members who qualified at the run: their
 * activity, package and active sponsored downlines read at the run's position in the log.
 */
export const profitSharingPolicy: Consumer = {
  name: 'profit-sharing',
  kind: 'policy',
  // GlobalProfitShared is paid by the points policy (payGlobalProfit), where CPV and ranks stand as at the share.
  eventTypes: ['ProfitPoolShared'],
  appends: bonusEventTypes,
  // A run pays every qualifying member: one run per batch keeps each transaction to one run.
  batchSize: 1,
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as RecordedEvent<ProfitSharingEvent>;
      const cause: BonusCause = { event_id: recorded.eventId, event_type: recorded.type, stream_id: recorded.streamId, member_id: null };
      if (event.type === 'ProfitPoolShared') {
        const decisions = profitPoolShares({
          cause,
          ...event.data,
          run_date: companyDate(new Date(recorded.recordedAt)),
          candidates: await profitPoolCandidates(trx, event.data.criteria.package_id, undefined, recorded),
        });
        await recordShares(trx, decisions, recorded);
      }
    }
  },
};
