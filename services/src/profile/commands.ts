import { sql } from 'kysely';
import { type CommandContext, runCommand, writeDecision } from '../core/command';
import type { EventMetadata } from '../core/event-store';
import { NotFound } from '../core/errors';
import { type ReadAhead, type SnapshotPolicy, type StreamRead, loadStream, streamRead } from '../core/snapshots';
import { type MemberDetails, type ProfileCommand, profileDecider } from './decider';
import { profileStream } from './events';
import { profileWrites } from './projections';
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * handleProfileCommand's first read of `memberId`'s profile, to run ahead with the session check
 * (auth/guards.ts `readAhead`); null for what is not a member id (the route's schema refuses it
 * after the guards).
 */
export function profileRead(memberId: string | undefined): StreamRead | null {
  if (!memberId || !UUID.test(memberId)) return null;
  return streamRead(profileStream(memberId.toLowerCase()), PROFILE_SNAPSHOTS, { facts: memberFacts(memberId) });
}

/**
 * One profile command's unit of work: read the member (their current names and phone are the
 * decider's input), decide on `member-profile-<id>`, append at the version read and project inline.
 *
 * Two statements and no explicit transaction (runCommand, issue 13 item 2): the stream's snapshot,
 * the events after it and the member, in one (loadStream); the append and the inline projection's
 * write (a change of names: the `members` row), and every 16 events a new snapshot, in one. A
 * decision of two events (bank details and their lock) is written in a transaction instead
 * (writeDecision). A stream that moved in between refuses the append and the command re-runs, in a
 * transaction under the stream's lock (lockOnRetry; the write takes the same lock), so two
 * requests on one profile (two tabs, a member and an admin) queue instead of failing each other:
 * the read and the write are two pool checkouts, and 32 clients on a pool of 10 wait between them.
 * `ahead`: the first read, made with the session check (profileRead): one statement less.
 */
export async function handleProfileCommand(
  ctx: CommandContext,
  memberId: string,
  buildCommand: (member: ProfileMember, currentDetails: MemberDetails) => ProfileCommand,
  metadata: EventMetadata,
  options: { ahead?: ReadAhead | null } = {},
): Promise<{ member: ProfileMember; recorded: number }> {
  // The stream is named by the id as PostgreSQL writes it (lower case), whatever case the caller sent.
  const streamId = profileStream(memberId.toLowerCase());
  return runCommand(ctx, async (run) => {
    const loaded = await loadStream(run.db, streamId, profileDecider, PROFILE_SNAPSHOTS, { facts: memberFacts(memberId), lock: run.locked, ahead: options.ahead });
    const member = loaded.facts?.member;
    if (!member) throw new NotFound(memberNotFound);
    const current = { first_name: member.first_name, last_name: member.last_name, phone: member.phone };
    const decided = profileDecider.decide(buildCommand(member, current), loaded.state);
    const { events } = await writeDecision(run, streamId, profileDecider, loaded, decided, metadata, { lock: true, project: profileWrites });
    return { member, recorded: events.length };
  }, { lockOnRetry: true });
}
