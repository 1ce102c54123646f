import { type Insertable, type Transaction, type Updateable, sql } from 'kysely';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { Database, MembersTable } from '../database';

/**
 * One event's change to a `members` row: columns set to values, and PV added. The members read
 * model gathers facts of several capabilities (read-models.ts); each says how its events change
 * the row as MemberChanges, and the same changes are written one event at a time by the commands
 * (applyMemberChange) and a batch at a time by rebuilds (projectMembersInBatches).
 */
export type MemberChange = { memberId: string; set: Updateable<MembersTable>; addPv?: number };

/** A capability's part: the changes one event makes (none for the events it does not read). */
export type MemberChanges = (recorded: RecordedEvent) => MemberChange[];

/** One change, as one UPDATE (the commands' inline path). A member with no row is left alone. */
export async function applyMemberChange(db: Executor, change: MemberChange): Promise<void> {
  await db
    .updateTable('members')
    .set((eb) => (change.addPv === undefined ? change.set : { ...change.set, personal_pv: eb('personal_pv', '+', change.addPv) }))
    .where('id', '=', change.memberId)
    .execute();
}

/** Where a registration enters: the row it inserts, or nothing (events of other types). */
export type MemberRegistration = (recorded: RecordedEvent) => Insertable<MembersTable> | null;

type Folded = { set: Record<string, unknown>; addPv: number; hasPv: boolean };
const fold = (into: Folded, change: MemberChange): Folded => {
  // In place: a batch folds thousands of changes.
  Object.assign(into.set, change.set);
  into.addPv += change.addPv ?? 0;
  into.hasPv ||= change.addPv !== undefined;
  return into;
};
const empty = (): Folded => ({ set: {}, addPv: 0, hasPv: false });
const merge = (first: Folded, then: Folded): Folded => ({ set: { ...first.set, ...then.set }, addPv: first.addPv + then.addPv, hasPv: first.hasPv || then.hasPv });

/**
 * The members read model a batch at a time, with the rows the events applied one by one leave
 * (a property test compares them: membership/member-changes.property.int.spec.ts):
 * - each member's changes are folded in log order (a later value wins; PV adds up), so a member
 *   changed by many events of the batch is written once;
 * - the batch's registrations are inserted in one statement, each carrying the changes that come
 *   after it in the batch (`on conflict do nothing`, as one by one). Changes before a member's
 *   registration updated no row one by one when the registration then inserted it (rows are
 *   never deleted, so it had none), and are dropped; when the registration inserted nothing (the
 *   row was there), every change of the batch applies to that row;
 * - the other members' folded changes are written by one UPDATE per set of columns changed
 *   (usually one), the values typed by the table's own row type (jsonb_populate_record).
 */
export function projectMembersInBatches(registration: MemberRegistration, changesOf: readonly MemberChanges[]) {
  return async (trx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<void> => {
    type Member = { registeredAt: number | null; row: Insertable<MembersTable> | null; before: Folded; after: Folded };
    const members = new Map<string, Member>();
    const of = (id: string): Member => {
      let member = members.get(id);
      if (!member) members.set(id, (member = { registeredAt: null, row: null, before: empty(), after: empty() }));
      return member;
    };
    events.forEach((recorded, ord) => {
      const row = registration(recorded);
      if (row) {
        const member = of(row.id);
        // A second registration of a member inserts nothing, one by one as here.
        if (member.registeredAt === null) Object.assign(member, { registeredAt: ord, row });
      }
      for (const changes of changesOf) {
        for (const change of changes(recorded)) {
          const member = of(change.memberId);
          if (member.registeredAt === null) member.before = fold(member.before, change);
          else member.after = fold(member.after, change);
        }
      }
    });

    const registered = [...members.entries()].filter(([, m]) => m.row !== null);
    const inserted = new Set<string>();
    if (registered.length > 0) {
      const rows = registered.map(([, m]) => {
        const { set, addPv, hasPv } = m.after;
        const row = { ...m.row!, ...set } as Insertable<MembersTable>;
        // personal_pv's default (0) plus the PV of the changes after the registration.
        if (hasPv) row.personal_pv = Number(row.personal_pv ?? 0) + addPv;
        return row;
      });
      // Every row names the same columns (kysely would fill a missing one with DEFAULT, which is the same).
      const inserts = await trx.insertInto('members').values(rows).onConflict((oc) => oc.column('id').doNothing()).returning('id').execute();
      for (const { id } of inserts) inserted.add(id);
    }

    // Grouped by the columns they set and whether they add PV: one UPDATE a group.
    const groups = new Map<string, { columns: string[]; hasPv: boolean; ids: string[]; patches: string[]; pv: number[] }>();
    for (const [id, m] of members) {
      if (inserted.has(id)) continue;
      // Not registered in the batch: all its changes; registered but already there: all of them too.
      const change = m.row === null ? m.before : merge(m.before, m.after);
      const columns = Object.keys(change.set).sort();
      if (columns.length === 0 && !change.hasPv) continue;
      const key = `${columns.join(',')}|${change.hasPv}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { columns, hasPv: change.hasPv, ids: [], patches: [], pv: [] }));
      group.ids.push(id);
      group.patches.push(JSON.stringify(change.set));
      group.pv.push(change.addPv);
    }
    for (const group of groups.values()) {
      const assignments = [
        ...group.columns.map((column) => sql`${sql.id(column)} = r.${sql.id(column)}`),
        ...(group.hasPv ? [sql`personal_pv = m.personal_pv + t.pv`] : []),
      ];
      await sql`
        update members m set ${sql.join(assignments)}
        from unnest(${sql.val(group.ids)}::uuid[], ${sql.val(group.patches)}::jsonb[], ${sql.val(group.pv)}::bigint[]) as t(id, patch, pv)
          cross join lateral jsonb_populate_record(null::members, t.patch) as r
        where m.id = t.id`.execute(trx);
    }
  };
}
