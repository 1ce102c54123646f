import { type Transaction, sql } from 'kysely';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import type { EventMetadata } from '../core/event-store';
import { NotFound } from '../core/errors';
import { type SnapshotPolicy, loadStream } from '../core/snapshots';
import type { Database } from '../database';
import { type MemberDetails, type ProfileCommand, profileDecider } from './decider';
import { profileStream } from './events';
import { projectProfiles } from './projections';
import { memberNotFound } from './queries';

/** What a profile command reads of the member: the names and phone (the decider's input) and what the routes mail with. */
export type ProfileMember = { id: string; username: string; email: string; first_name: string; last_name: string; phone: string };

/**
 * Profile streams are folded from a snapshot (core/snapshots.ts): every change of names, photo or
 * bank details is an event on `member-profile-<id>`, so the stream grows with the member's history.
 * Bump the kind when evolveProfile or ProfileState changes.
 */
export const PROFILE_SNAPSHOTS: SnapshotPolicy = { kind: 'profile/1', every: 16 };

const memberFacts = (memberId: string) =>
  sql<{ member: ProfileMember | null }>`jsonb_build_object('member',
    (select to_jsonb(m) from (select id, username, email, first_name, last_name, phone from members where id = ${memberId}) m))`;

/**
 * One profile command's unit of work: read the member (their current names and phone are the
 * decider's input), decide on `member-profile-<id>`, project inline, all in one transaction.
 *
 * Statements: the stream's snapshot, the events after it and the member, in one (loadStream);
 * the append; the inline projection's write (a change of names: the `members` row); and every
 * 16 events a new snapshot. It used to read the member, then the whole stream, apart.
 */
export async function handleProfileCommand(
  ctx: CommandContext,
  memberId: string,
  buildCommand: (member: ProfileMember, currentDetails: MemberDetails) => ProfileCommand,
  metadata: EventMetadata,
): Promise<{ member: ProfileMember; recorded: number }> {
  // The stream is named by the id as PostgreSQL writes it (lower case), whatever case the caller sent.
  const streamId = profileStream(memberId.toLowerCase());
  return runInTransaction(ctx, async (trx: Transaction<Database>) => {
    const loaded = await loadStream(trx, streamId, profileDecider, PROFILE_SNAPSHOTS, { facts: memberFacts(memberId) });
    const member = loaded.facts?.member;
    if (!member) throw new NotFound(memberNotFound);
    const current = { first_name: member.first_name, last_name: member.last_name, phone: member.phone };
    const { events } = await decideOnStream(trx, streamId, profileDecider, buildCommand(member, current), metadata, loaded);
    await projectProfiles(trx, events);
    return { member, recorded: events.length };
  });
}
