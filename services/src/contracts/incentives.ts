import { z } from 'zod';
import { idField, nairaFigure, pageNumber } from './fields';

/**
 * Incentive claims as the portal API shows them (seed 000 §2.5, §3, §7; seed 001 §2 member detail;
 * seed 002 "Incentive Requests"): money in naira.
 */

export const incentiveClaimStatus = z.enum(['processing', 'approved', 'declined']);
export type IncentiveClaimStatus = z.infer<typeof incentiveClaimStatus>;

/** POST /incentive-claims/{memberId}/create */
export const claimIncentiveBody = z.object({
  rank_id: idField('The rank field is required.', 'The selected rank is invalid.'),
  incentive_id: idField('The incentive field is required.', 'The selected incentive is invalid.'),
});
export type ClaimIncentiveBody = z.input<typeof claimIncentiveBody>;

/** PUT /incentive-claims/{claimId}/decline may say why (shown to the member); approve sends nothing. */
export const claimDecisionBody = z.object({ reason: z.string().max(500, 'The reason may not be greater than 500 characters.').optional() }).nullish();

/**
 * GET /incentive-claims/{memberId}/current-incentive: the incentive of the highest rank the member
 * holds that they have not yet received (an approved claim), with the member's latest claim of it;
 * null when there is none (the dashboard then shows the rank badge or 'You are yet to qualify for
 * an incentive'). `id` and `claim_status` repeat `incentive_id` and `claim.status` for the seeds' client.
 */
export const currentIncentive = z
  .object({
    id: z.number(),
    rank_id: z.number(),
    rank_name: z.string(),
    points: z.number(),
    incentive_id: z.number(),
    incentive: z.string(),
    worth: z.number(),
    file_path: z.string().nullable(),
    claim: z.object({ id: z.string(), status: incentiveClaimStatus }).nullable(),
    claim_status: incentiveClaimStatus.nullable(),
  })
  .nullable();
export type CurrentIncentive = z.infer<typeof currentIncentive>;

/** One row of the member's Claimed Incentives table (newest first); `points` is the claim's PV level. */
export const memberIncentiveClaim = z.object({
  id: z.string(),
  rank_id: z.number(),
  rank_name: z.string(),
  incentive_id: z.number(),
  incentive: z.string(),
  worth: nairaFigure,
  points: z.number(),
  status: incentiveClaimStatus,
  decline_reason: z.string().nullable(),
  created_at: z.string(),
});
export type MemberIncentiveClaim = z.infer<typeof memberIncentiveClaim>;

/** One row of the admins' Incentive Requests (seed 002): who claimed what, on which package and CPV. */
export const adminIncentiveClaim = memberIncentiveClaim.extend({
  member_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  package_name: z.string().nullable(),
  /** The member's CPV when they claimed. */
  cpv: z.number(),
  decided_at: z.string().nullable(),
});
export type AdminIncentiveClaim = z.infer<typeof adminIncentiveClaim>;

export const pagedIncentiveClaims = z.object({
  data: z.array(adminIncentiveClaim),
  current_page: z.number(),
  last_page: z.number(),
  per_page: z.number(),
  total: z.number(),
});

/** GET /incentive-claims/all: `status` defaults to processing (the requests waiting for an admin); `all` lists every claim. */
export const incentiveClaimsQuery = z.object({
  page: pageNumber,
  status: z.enum(['processing', 'approved', 'declined', 'all'], { error: 'The status must be processing, approved, declined or all.' }).default('processing'),
});

// ---- the back office (react-admin, /api/admin/incentives and /api/admin/ranks) -------------

/**
 * An image chosen in the back office's ImageInput, sent inside the JSON body as a data URL
 * (`data:image/png;base64,...`); the server checks it like a multipart upload (≤ 500 kB, an image
 * by its content). Absent or null: the image stays as it is.
 */
export const imageDataUrl = z
  .string({ error: 'The image must be sent as a data URL.' })
  .regex(/^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/=\s]*$/, 'The image must be sent as a data URL.')
  .nullish();
