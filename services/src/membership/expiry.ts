import { sql } from 'kysely';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import { ConcurrencyConflict, NotFound } from '../core/errors';
import { type EventMetadata, readStream } from '../core/event-store';
import { releaseKey, reserveKey } from '../core/unique-keys';
import { getSettings } from '../settings/projections';
import { choosePlacementLeg, memberDecider } from './decider';
import { type MemberRegistrationExpired, REGISTRATION_WINDOW_DAYS, memberStream } from './events';
import { projectMembers } from './projections';
import { findMemberByUsername, occupiedLegs } from './queries';

const DAY_MS = 86_400_000;

/**
 * Expires unpaid registrations past their 7-day window (BUSINESS-RULES.md §1, §2) and frees their
 * placement slots. A registration whose receipt waits for an admin is left alone: the member paid.
 * Run by the worker's scheduler; safe to run twice or in two places (each expiry is decided on the
 * member's stream, so it happens once).
 */
export async function expireOverdueRegistrations(ctx: CommandContext, now: Date, limit = 500): Promise<number> {
  const overdue = await ctx.db
    .selectFrom('members as m')
    .select(['m.id', 'm.registration_expires_at'])
    .where('m.activated_at', 'is', null)
    .where('m.registration_expired_at', 'is', null)
    .where('m.registration_expires_at', '<=', now)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('package_payments as p').select('p.id').whereRef('p.member_id', '=', 'm.id').where('p.status', '=', 'pending'))))
    .orderBy('m.registration_expires_at')
    .limit(limit)
    .execute();
  const metadata: EventMetadata = { actor: { type: 'system', id: 'registration-expiry' }, now: now.toISOString(), causation_id: null, correlation_id: `registration-expiry-${now.toISOString()}` };
  let expired = 0;
  for (const member of overdue) {
    await runInTransaction(ctx, async (trx) => {
      const { events } = await decideOnStream(trx, memberStream(member.id), memberDecider, {
        type: 'ExpireRegistration',
        data: { member_id: member.id, now: now.toISOString(), deadline: member.registration_expires_at!.toISOString() },
      }, metadata);
      for (const event of events) {
        const freed = event as unknown as MemberRegistrationExpired;
        if (freed.data.freed_placement_parent_id && freed.data.freed_placement_leg) {
          await releaseKey(trx, 'placement-slot', `${freed.data.freed_placement_parent_id}:${freed.data.freed_placement_leg}`, member.id);
        }
      }
      await projectMembers(trx, events);
      expired += events.length;
    });
  }
  return expired;
}

/**
 * An admin reinstates an expired registration: it gets a new 7-day window and a placement slot,
 * its old one if still free, else the first free slot below its old placement parent (breadth
 * first, older members first), so the member stays in the same part of the tree.
 */
export async function reinstateRegistration(ctx: CommandContext, memberId: string, metadata: EventMetadata): Promise<void> {
  await runInTransaction(ctx, async (trx) => {
    const past = await readStream(trx, memberStream(memberId));
    if (past.length === 0) throw new NotFound('Member not found.');
    const lastExpiry = [...past].reverse().find((e) => e.type === 'MemberRegistrationExpired') as unknown as MemberRegistrationExpired | undefined;
    const rootUsername = (await getSettings(trx)).default_referral_code;
    const origin = lastExpiry?.data.freed_placement_parent_id ?? (await findMemberByUsername(trx, rootUsername))?.id;
    if (!origin) throw new NotFound('No placement is available.');
    const { rows } = await sql<{ id: string; username: string }>`
      with recursive tree(id, depth) as (
        select ${origin}::uuid, 0
        union all
        select m.id, t.depth + 1 from members m join tree t on m.placement_parent_id = t.id
        where t.depth < 64 and m.id <> ${memberId}
      )
      select m.id, m.username from tree t join members m on m.id = t.id
      where (select count(*) from members c where c.placement_parent_id = m.id) < 2
      order by t.depth, m.created_at
      limit 1`.execute(trx);
    const parent = rows[0];
    if (!parent) throw new NotFound('No placement is available.');
    const leg = choosePlacementLeg(parent.username, await occupiedLegs(trx, parent.id));
    const expiresAt = new Date(new Date(metadata.now).getTime() + REGISTRATION_WINDOW_DAYS * DAY_MS).toISOString();
    const { events } = await decideOnStream(trx, memberStream(memberId), memberDecider, {
      type: 'ReinstateMember',
      data: { member_id: memberId, placement_parent_id: parent.id, placement_leg: leg, expires_at: expiresAt },
    }, metadata);
    if (!(await reserveKey(trx, 'placement-slot', `${parent.id}:${leg}`, memberId))) throw new ConcurrencyConflict(`placement-${parent.id}`, 'any', null);
    await projectMembers(trx, events);
  });
}
