import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { RegisterBody } from '../contracts/auth';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import type { EventMetadata } from '../core/event-store';
import { ConcurrencyConflict, RuleViolation } from '../core/errors';
import { reserveKey } from '../core/unique-keys';
import type { Database } from '../database';
import { findPackage } from '../catalogue/queries';
import { getSettings } from '../settings/projections';
import { checkPlacementUnderSponsor, choosePlacementLeg, memberDecider } from './decider';
import { memberStream } from './events';
import { projectMembers } from './projections';
import { findMemberByEmail, findMemberByUsername, isSelfOrPlacementAncestor, occupiedLegs } from './queries';

export const registrationMessages = {
  usernameTaken: 'The username has already been taken.',
  emailTaken: 'The email has already been taken.',
  packageInvalid: 'The selected package is invalid.',
  placementUnknown: 'The placement (referrer) does not exist.',
  sponsorUnknown: 'The sponsor does not exist.',
} as const;

type Registration = Omit<RegisterBody, 'referrer' | 'placer'> & { referrer: string; placer: string; package_id: number };

/**
 * Registration (BUSINESS-RULES.md §1). Reads first (package, placement, sponsor, free leg), then
 * appends MemberRegistered as the transaction's first write, then claims the unique keys: a
 * username, e-mail or placement slot taken meanwhile rolls everything back.
 */
export async function registerMember(
  ctx: CommandContext,
  input: Registration & { passwordHash: string },
  metadata: EventMetadata,
): Promise<{ memberId: string }> {
  const memberId = randomUUID();
  await runInTransaction(ctx, async (trx) => {
    const pkg = await findPackage(trx, input.package_id);
    if (!pkg) throw new RuleViolation(registrationMessages.packageInvalid, 'package_id');
    if (await findMemberByUsername(trx, input.username)) throw new RuleViolation(registrationMessages.usernameTaken, 'username');
    if (await findMemberByEmail(trx, input.email)) throw new RuleViolation(registrationMessages.emailTaken, 'email');

    const placementName = input.referrer || (await getSettings(trx)).default_referral_code;
    const placement = await findMemberByUsername(trx, placementName);
    if (!placement) throw new RuleViolation(registrationMessages.placementUnknown, 'referrer');
    let sponsor = placement;
    if (input.placer) {
      const named = await findMemberByUsername(trx, input.placer);
      if (!named) throw new RuleViolation(registrationMessages.sponsorUnknown, 'placer');
      sponsor = named;
      checkPlacementUnderSponsor({
        placementIsSponsorOrBelow: await isSelfOrPlacementAncestor(trx, placement.id, sponsor.id),
        sponsorUsername: sponsor.username,
      });
    }
    const leg = choosePlacementLeg(placement.username, await occupiedLegs(trx, placement.id));

    const { events } = await decideOnStream(trx, memberStream(memberId), memberDecider, {
      type: 'RegisterMember',
      data: {
        member_id: memberId,
        username: input.username,
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        phone: input.phone,
        package_id: pkg.id,
        sponsor_id: sponsor.id,
        placement_parent_id: placement.id,
        placement_leg: leg,
        is_root: false,
      },
    }, metadata);

    await claimRegistrationKeys(trx, { memberId, username: input.username, email: input.email, placementId: placement.id, leg });
    await projectMembers(trx, events);
    await trx
      .insertInto('credentials')
      .values({ account_kind: 'member', account_id: memberId, password_hash: input.passwordHash, changed_at: new Date(metadata.now) })
      .execute();
  });
  return { memberId };
}

export async function claimRegistrationKeys(
  trx: Transaction<Database>,
  keys: { memberId: string; username: string; email: string; placementId: string | null; leg: string | null },
): Promise<void> {
  if (!(await reserveKey(trx, 'username', keys.username.toLowerCase(), keys.memberId))) {
    throw new RuleViolation(registrationMessages.usernameTaken, 'username');
  }
  if (!(await reserveKey(trx, 'email', keys.email.toLowerCase(), keys.memberId))) {
    throw new RuleViolation(registrationMessages.emailTaken, 'email');
  }
  if (keys.placementId && keys.leg) {
    // Another registration took this leg since we looked: decide again from a fresh read.
    if (!(await reserveKey(trx, 'placement-slot', `${keys.placementId}:${keys.leg}`, keys.memberId))) {
      throw new ConcurrencyConflict(`placement-${keys.placementId}`, 'any', null);
    }
  }
}
