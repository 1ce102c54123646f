import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import { NotFound, RuleViolation } from '../core/errors';
import type { EventMetadata } from '../core/event-store';
import { releaseKey, reserveKey } from '../core/unique-keys';
import { incentiveClaimDecider, incentiveMessages } from './decider';
import { INCENTIVE_CLAIM_KEY_SCOPE, incentiveClaimKey, incentiveClaimStream } from './events';
import { projectIncentiveClaims } from './projections';
import { heldRank } from './queries';

/**
 * A member claims the incentive of a rank they hold. Reads the facts (the member, the rank they
 * hold, the catalogue, their other claims of the incentive), decides on the new claim's stream,
 * then reserves the (member, incentive) key: two claims of the same incentive racing each other
 * from two tabs cannot both be recorded, whatever the reads saw.
 */
export async function claimIncentive(
  ctx: CommandContext,
  input: { claimId: string; memberId: string; rankId: number; incentiveId: number },
  metadata: EventMetadata,
): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const member = await trx.selectFrom('members').select(['id', 'activated_at', 'deactivated']).where('id', '=', input.memberId).executeTakeFirst();
    if (!member) throw new NotFound('Member not found.');
    const rank = await trx.selectFrom('ranks').select(['id', 'name', 'points']).where('id', '=', input.rankId).executeTakeFirst();
    const incentive = await trx.selectFrom('incentives').select(['id', 'rank_id', 'incentive', 'worth']).where('id', '=', input.incentiveId).executeTakeFirst();
    const existing = await trx
      .selectFrom('incentive_claims')
      .select(['id', 'status'])
      .where('member_id', '=', member.id)
      .where('incentive_id', '=', input.incentiveId)
      .where('status', 'in', ['processing', 'approved'])
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    const points = await trx.selectFrom('member_points').select('cpv').where('member_id', '=', member.id).executeTakeFirst();
    const { events } = await decideOnStream(
      trx,
      incentiveClaimStream(input.claimId),
      incentiveClaimDecider,
      {
        type: 'ClaimIncentive',
        data: {
          claim_id: input.claimId,
          member_id: member.id,
          rank_id: input.rankId,
          incentive_id: input.incentiveId,
          member_active: member.activated_at !== null && !member.deactivated,
          held_rank: await heldRank(trx, member.id),
          rank: rank ?? null,
          incentive: incentive ? { id: incentive.id, rank_id: incentive.rank_id, incentive: incentive.incentive, worth_kobo: incentive.worth } : null,
          existing_claim: existing && existing.status !== 'declined' ? { claim_id: existing.id, status: existing.status } : null,
          cpv: points?.cpv ?? 0,
        },
      },
      metadata,
    );
    if (events.length === 0) return;
    // Lost to a concurrent claim of the same incentive: this transaction (and its append) rolls back.
    if (!(await reserveKey(trx, INCENTIVE_CLAIM_KEY_SCOPE, incentiveClaimKey(member.id, input.incentiveId), input.claimId))) {
      throw new RuleViolation(incentiveMessages.alreadyProcessing, 'incentive_id');
    }
    await projectIncentiveClaims(trx, events);
  });
}

/**
 * An admin approves (award bonuses follow, from the `award-bonuses` policy) or declines a claim
 * that is being processed. A decline frees the (member, incentive) key so the member may claim again.
 */
export async function decideIncentiveClaim(
  ctx: CommandContext,
  claimId: string,
  decision: { type: 'approve' } | { type: 'decline'; reason?: string },
  metadata: EventMetadata,
): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const command = decision.type === 'approve' ? ({ type: 'ApproveClaim', data: { claim_id: claimId } } as const) : ({ type: 'DeclineClaim', data: { claim_id: claimId, reason: decision.reason } } as const);
    const { events } = await decideOnStream(trx, incentiveClaimStream(claimId), incentiveClaimDecider, command, metadata);
    for (const event of events) {
      if (event.type === 'IncentiveClaimDeclined') {
        await releaseKey(trx, INCENTIVE_CLAIM_KEY_SCOPE, incentiveClaimKey(event.data.member_id, event.data.incentive_id), claimId);
      }
    }
    await projectIncentiveClaims(trx, events);
  });
}
