import type { DomainEvent } from '../core/event-store';

/**
 * Incentive claims (BUSINESS-RULES.md §3 "Ranks and incentives"), one stream per claim:
 * `incentive-claim-<claimId>`. A claim is `processing` from IncentiveClaimed until an admin
 * approves it (award bonuses are then paid: incentives/policies.ts) or declines it (the member may
 * claim the same incentive again, as a new claim). Money in kobo.
 *
 * The claimed rank and incentive are copied into the event as they were when claimed, so an admin
 * editing the catalogue later does not change what was claimed or what the award bonuses are
 * worked out from.
 */
export type IncentiveClaimed = DomainEvent<
  'IncentiveClaimed',
  {
    claim_id: string;
    member_id: string;
    rank_id: number;
    rank_name: string;
    incentive_id: number;
    incentive: string;
    worth_kobo: number;
    /** The claimed rank's points (the "PV level" of the claim). */
    points: number;
    /** The member's CPV when they claimed (the back office's CPV column). */
    cpv: number;
  }
>;

export type IncentiveClaimApproved = DomainEvent<
  'IncentiveClaimApproved',
  { claim_id: string; member_id: string; rank_id: number; incentive_id: number; incentive: string; worth_kobo: number }
>;

export type IncentiveClaimDeclined = DomainEvent<'IncentiveClaimDeclined', { claim_id: string; member_id: string; incentive_id: number; reason?: string }>;

export type IncentiveClaimEvent = IncentiveClaimed | IncentiveClaimApproved | IncentiveClaimDeclined;

export type IncentiveClaimStatus = 'processing' | 'approved' | 'declined';

export const incentiveClaimStream = (claimId: string) => `incentive-claim-${claimId}`;

/**
 * The unique key that makes an incentive claimable once per member across claim streams: held
 * while a claim of it is processing or approved, released when it is declined.
 */
export const INCENTIVE_CLAIM_KEY_SCOPE = 'incentive-claim';
export const incentiveClaimKey = (memberId: string, incentiveId: number) => `${memberId}:${incentiveId}`;
