import type { Transaction } from 'kysely';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import type { EventMetadata } from '../core/event-store';
import { NotFound } from '../core/errors';
import type { Database } from '../database';
import { findMember } from '../membership/queries';
import { type MemberDetails, type ProfileCommand, profileDecider } from './decider';
import { profileStream } from './events';
import { projectProfiles } from './projections';
import { memberNotFound } from './queries';

type Member = NonNullable<Awaited<ReturnType<typeof findMember>>>;

/**
 * One profile command's unit of work: read the member (their current names and phone are the
 * decider's input), decide on `member-profile-<id>`, project inline, all in one transaction.
 */
export async function handleProfileCommand(
  ctx: CommandContext,
  memberId: string,
  buildCommand: (member: Member, currentDetails: MemberDetails) => ProfileCommand,
  metadata: EventMetadata,
): Promise<{ member: Member; recorded: number }> {
  return runInTransaction(ctx, async (trx: Transaction<Database>) => {
    const member = await findMember(trx, memberId);
    if (!member) throw new NotFound(memberNotFound);
    const current = { first_name: member.first_name, last_name: member.last_name, phone: member.phone };
    const { events } = await decideOnStream(trx, profileStream(member.id), profileDecider, buildCommand(member, current), metadata);
    await projectProfiles(trx, events);
    return { member, recorded: events.length };
  });
}
