import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { RegisterBody } from '../contracts/auth';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import type { EventMetadata } from '../core/event-store';
import { ConcurrencyConflict, RuleViolation } from '../core/errors';
import { reserveKey } from '../core/unique-keys';
import type { Database } from '../database';
import { findPackage } from '../catalogue/queries';
import { memberDecider } from './decider';
import { memberStream } from './events';
import { projectMembers } from './projections';
import { placementMessages, resolvePlacement } from './placement';
import { findMemberByUsername } from './queries';

export const registrationMessages = {
  usernameTaken: 'The username has already been taken.',
  emailTaken: 'The email has already been taken.',
  packageInvalid: 'The selected package is invalid.',
  placementUnknown: placementMessages.placementUnknown,
  sponsorUnknown: placementMessages.sponsorUnknown,
} as const;

type Registration = Omit<RegisterBody, 'referrer' | 'placer'> & { referrer: string; placer: string; package_id: number };

/** An e-mail already registered (a RuleViolation for the seeds; registration answers it like a success). */
export class EmailAlreadyRegistered extends RuleViolation {
  constructor() {
    super(registrationMessages.emailTaken, 'email');
  }
}

export type RegistrationOutcome =
  | { outcome: 'registered'; memberId: string }
  /** Nothing was registered; `memberId` is the id the registration would have had (answered as if it had). */
  | { outcome: 'email-already-registered'; memberId: string };

/** A registration appends its MemberRegistered alone (decision 73): the wallet ledger and the other readers need not wait for it. */
export const registrationAppends: readonly string[] = ['MemberRegistered'];

/**
 * Registration (BUSINESS-RULES.md §1, docs/placement.md). Reads first (package, username, placement,
 * sponsor, free slot, spilling below a full placement), then appends MemberRegistered as the
 * transaction's first write (so its transaction id, which orders the log, is taken after its
 * placement parent's registration committed: the genealogy projection needs the parent first),
 * then claims the unique keys: a username taken meanwhile rolls
 * everything back; a placement slot taken meanwhile is decided again from a fresh read (the recruit
 * then takes the next free slot), so racing recruits through one link are all placed.
 *
 * An e-mail that already has an account is not looked up beforehand: the registration does the same
 * work and is rolled back at the e-mail's key, so the caller (answered alike, docs/security-auth.md
 * A6) cannot tell it from a new address by the answer or by its time.
 */
export async function registerMember(
  ctx: CommandContext,
  input: Registration & { passwordHash: string },
  metadata: EventMetadata,
): Promise<RegistrationOutcome> {
  const memberId = randomUUID();
  try {
    await recordRegistration(ctx, memberId, input, metadata);
  } catch (error) {
    if (error instanceof EmailAlreadyRegistered) return { outcome: 'email-already-registered', memberId };
    throw error;
  }
  return { outcome: 'registered', memberId };
}

async function recordRegistration(ctx: CommandContext, memberId: string, input: Registration & { passwordHash: string }, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const pkg = await findPackage(trx, input.package_id);
    if (!pkg) throw new RuleViolation(registrationMessages.packageInvalid, 'package_id');
    // User names are public (sponsors are named by them): a taken one is said so.
    if (await findMemberByUsername(trx, input.username)) throw new RuleViolation(registrationMessages.usernameTaken, 'username');

    const { placement, leg, sponsor } = await resolvePlacement(trx, { referrer: input.referrer, placer: input.placer });

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
  }, { attempts: 12, appends: registrationAppends });
}

export async function claimRegistrationKeys(
  trx: Transaction<Database>,
  keys: { memberId: string; username: string; email: string; placementId: string | null; leg: string | null },
): Promise<void> {
  if (!(await reserveKey(trx, 'username', keys.username.toLowerCase(), keys.memberId))) {
    throw new RuleViolation(registrationMessages.usernameTaken, 'username');
  }
  if (!(await reserveKey(trx, 'email', keys.email.toLowerCase(), keys.memberId))) throw new EmailAlreadyRegistered();
  if (keys.placementId && keys.leg) {
    // Another registration took this leg since we looked: decide again from a fresh read.
    if (!(await reserveKey(trx, 'placement-slot', `${keys.placementId}:${keys.leg}`, keys.memberId))) {
      throw new ConcurrencyConflict(`placement-${keys.placementId}`, 'any', null);
    }
  }
}
