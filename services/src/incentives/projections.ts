import type { Transaction } from 'kysely';
import { bonusEventTypes } from '../compensation/events';
import { memberAt, placementChildrenAt, settingsAt } from '../compensation/facts-at-cause';
import { type BonusBook, appendBook, bookBonuses } from '../compensation/projections';
import type { Consumer } from '../core/consumers';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import type { IncentiveClaimApproved, IncentiveClaimEvent } from './events';
import { awardBonuses } from './policies';

/**
 * Inline projection: `incentive_claims` changes in the claim command's own transaction, so the
 * member's dashboard shows "processing" and the admins' requests list the claim at once.
 * Replaying a claim stream through it gives the same row (inserts are keyed by the claim id).
 */
export async function projectIncentiveClaims(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<IncentiveClaimEvent>;
    const at = new Date(recorded.recordedAt);
    const actor = recorded.metadata.actor;
    const decidedBy = actor.type === 'admin' ? actor.id : null;
    switch (event.type) {
      case 'IncentiveClaimed': {
        const d = event.data;
        await db
          .insertInto('incentive_claims')
          .values({
            id: d.claim_id,
            member_id: d.member_id,
            rank_id: d.rank_id,
            rank_name: d.rank_name,
            incentive_id: d.incentive_id,
            incentive: d.incentive,
            worth: d.worth_kobo,
            points: d.points,
            cpv: d.cpv,
            status: 'processing',
            created_at: at,
            claimed_position: recorded.globalPosition,
            updated_at: at,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'IncentiveClaimApproved':
        await db.updateTable('incentive_claims').set({ status: 'approved', decided_by: decidedBy, decided_at: at, updated_at: at }).where('id', '=', event.data.claim_id).execute();
        break;
      case 'IncentiveClaimDeclined':
        await db
          .updateTable('incentive_claims')
          .set({ status: 'declined', decline_reason: event.data.reason ?? null, decided_by: decidedBy, decided_at: at, updated_at: at })
          .where('id', '=', event.data.claim_id)
          .execute();
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
}

/** The winner's sponsor and placement children as they stood when the claim was approved, with their activity then. */
async function awardFacts(trx: Transaction<Database>, winnerId: string, approval: RecordedEvent) {
  const winner = await memberAt(trx, winnerId, approval);
  const sponsor = winner?.sponsorId ? await memberAt(trx, winner.sponsorId, approval) : undefined;
  const children = winner ? await placementChildrenAt(trx, winnerId, approval) : [];
  return { winner, sponsor: sponsor ?? null, children };
}

/**
 * Award bonuses (BUSINESS-RULES.md §3): each approved incentive claim pays the winner's sponsor and
 * placement children their percentages of its worth, decided by the pure `awardBonuses` and
 * recorded on their wallet streams once per (approval, beneficiary, kind), all of a batch in one append.
 */
export const awardBonusesPolicy: Consumer = {
  name: 'award-bonuses',
  kind: 'policy',
  eventTypes: ['IncentiveClaimApproved'],
  appends: bonusEventTypes,
  batchSize: 50,
  async apply(trx, events) {
    const book: BonusBook = [];
    for (const recorded of events) {
      const event = recorded as RecordedEvent<IncentiveClaimApproved>;
      const d = event.data;
      const settings = await settingsAt(trx, recorded);
      const facts = await awardFacts(trx, d.member_id, recorded);
      if (!facts.winner) continue;
      const decisions = awardBonuses({
        cause: { event_id: recorded.eventId, event_type: recorded.type, stream_id: recorded.streamId, member_id: d.member_id },
        worthKobo: d.worth_kobo,
        incentive: { id: d.incentive_id, name: d.incentive },
        sponsor: facts.sponsor,
        placementChildren: facts.children,
        settings,
      });
      await bookBonuses(trx, book, decisions, recorded, 'award-bonuses');
    }
    await appendBook(trx, book);
  },
};
