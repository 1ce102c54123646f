import { describe, expect, it } from 'vitest';
import { foldEvents } from '../core/command';
import { NotFound, RuleViolation } from '../core/errors';
import { type ClaimIncentiveCommand, type IncentiveClaimCommand, incentiveClaimDecider as decider, incentiveMessages } from './decider';
import type { IncentiveClaimEvent, IncentiveClaimed } from './events';

/** Given past events of one claim stream, when a command, then these new events (or this refusal). */
const given = (past: IncentiveClaimEvent[]) => ({
  when: (command: IncentiveClaimCommand) => {
    const decide = () => decider.decide(command, foldEvents(decider, past));
    return {
      then: (expected: IncentiveClaimEvent[]) => expect(decide()).toEqual(expected),
      thenRefused: (message: string, type: typeof RuleViolation | typeof NotFound = RuleViolation) => {
        expect(decide).toThrow(type);
        expect(decide).toThrow(message);
      },
    };
  },
});

const naira = (n: number) => n * 100;
/** The seeded ranks 1–3 (points) and the Supervisor's incentive, an Android phone worth ₦120,000. */
const associate = { id: 1, name: 'Associate', points: 0 };
const supervisor = { id: 2, name: 'Supervisor', points: 500 };
const manager = { id: 3, name: 'Manager', points: 2_000 };
const phone = { id: 2, rank_id: 2, incentive: 'Android phone', worth_kobo: naira(120_000) };
const laptop = { id: 3, rank_id: 3, incentive: 'Laptop', worth_kobo: naira(450_000) };

const claimCommand = (overrides: Partial<ClaimIncentiveCommand['data']> = {}): IncentiveClaimCommand => ({
  type: 'ClaimIncentive',
  data: { claim_id: 'c1', member_id: 'm1', rank_id: 2, incentive_id: 2, member_active: true, held_rank: supervisor, rank: supervisor, incentive: phone, existing_claim: null, cpv: 640, ...overrides },
});

const claimed: IncentiveClaimed = {
  type: 'IncentiveClaimed',
  data: { claim_id: 'c1', member_id: 'm1', rank_id: 2, rank_name: 'Supervisor', incentive_id: 2, incentive: 'Android phone', worth_kobo: naira(120_000), points: 500, cpv: 640 },
};
const approved: IncentiveClaimEvent = {
  type: 'IncentiveClaimApproved',
  data: { claim_id: 'c1', member_id: 'm1', rank_id: 2, incentive_id: 2, incentive: 'Android phone', worth_kobo: naira(120_000) },
};
const declined = (reason?: string): IncentiveClaimEvent => ({ type: 'IncentiveClaimDeclined', data: { claim_id: 'c1', member_id: 'm1', incentive_id: 2, ...(reason ? { reason } : {}) } });

describe('claiming an incentive', () => {
  it('a Supervisor (500 points ≤ held 500) claims the Supervisor incentive: it is recorded as processing with its worth ₦120,000 and 500 points', () => {
    given([]).when(claimCommand()).then([claimed]);
  });

  it('a Manager (held 2,000 points) may claim a lower rank it passed on the way (Supervisor 500 ≤ 2,000)', () => {
    given([]).when(claimCommand({ held_rank: manager })).then([claimed]);
  });

  it('a Supervisor (held 500) may not claim the Manager incentive: 2,000 points > 500', () => {
    given([]).when(claimCommand({ rank_id: 3, incentive_id: 3, rank: manager, incentive: laptop })).thenRefused(incentiveMessages.rankNotReached('Manager', 2_000));
    expect(incentiveMessages.rankNotReached('Manager', 2_000)).toBe('You have not reached the Manager rank yet: it needs 2,000 CPV.');
  });

  it('a member who holds no rank yet is told they are yet to qualify', () => {
    given([]).when(claimCommand({ held_rank: null })).thenRefused('You are yet to qualify for an incentive');
  });

  it('the incentive must belong to the claimed rank: the Laptop (Manager) under the Associate rank is refused', () => {
    given([]).when(claimCommand({ rank_id: 1, incentive_id: 3, rank: associate, incentive: laptop, held_rank: manager })).thenRefused('"Laptop" is not the incentive of the Associate rank.');
  });

  it('an unknown rank or incentive is refused with a readable message', () => {
    given([]).when(claimCommand({ rank: null })).thenRefused(incentiveMessages.rankInvalid);
    given([]).when(claimCommand({ incentive: null })).thenRefused(incentiveMessages.incentiveInvalid);
  });

  it('an inactive member cannot claim', () => {
    given([]).when(claimCommand({ member_active: false })).thenRefused(incentiveMessages.notActive);
  });

  it('once per incentive: a processing claim of the same incentive refuses a new one, an approved one too', () => {
    given([]).when(claimCommand({ existing_claim: { claim_id: 'c0', status: 'processing' } })).thenRefused('You have already claimed this incentive; your claim is being processed.');
    given([]).when(claimCommand({ existing_claim: { claim_id: 'c0', status: 'approved' } })).thenRefused('You have already received this incentive.');
  });

  it('the same claim id again (a retried request) records nothing more', () => {
    given([claimed]).when(claimCommand()).then([]);
  });
});

describe('approving and declining a claim', () => {
  it('an admin approves a processing claim: IncentiveClaimApproved carries the worth claimed (₦120,000) for the award bonuses', () => {
    given([claimed]).when({ type: 'ApproveClaim', data: { claim_id: 'c1' } }).then([approved]);
  });

  it('an admin declines a processing claim, with or without a reason', () => {
    given([claimed]).when({ type: 'DeclineClaim', data: { claim_id: 'c1', reason: ' No proof of rank ' } }).then([declined('No proof of rank')]);
    given([claimed]).when({ type: 'DeclineClaim', data: { claim_id: 'c1', reason: '  ' } }).then([declined()]);
  });

  it('only from processing: an approved claim cannot be approved again or declined; a declined one cannot be approved', () => {
    given([claimed, approved]).when({ type: 'ApproveClaim', data: { claim_id: 'c1' } }).thenRefused('This claim has already been approved');
    given([claimed, approved]).when({ type: 'DeclineClaim', data: { claim_id: 'c1' } }).thenRefused('This claim has already been approved');
    given([claimed, declined()]).when({ type: 'ApproveClaim', data: { claim_id: 'c1' } }).thenRefused('This claim has already been declined');
  });

  it('a claim that does not exist is not found', () => {
    given([]).when({ type: 'ApproveClaim', data: { claim_id: 'c9' } }).thenRefused(incentiveMessages.claimNotFound, NotFound);
    given([]).when({ type: 'DeclineClaim', data: { claim_id: 'c9' } }).thenRefused(incentiveMessages.claimNotFound, NotFound);
  });
});
