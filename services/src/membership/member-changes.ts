import { type Insertable, type RawBuilder, type Updateable, sql } from 'kysely';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import { projectRowsInBatches } from '../core/row-changes';
import { projectRowsAt } from '../core/row-changes-at';
import type { MembersTable } from '../database';

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
  await memberChangeWrite(db, change).execute();
}

/** applyMemberChange's UPDATE, not yet run (a command's one-statement write: core/command.ts writeDecision). */
export function memberChangeWrite(db: Executor, change: MemberChange) {
  return db
    .updateTable('members')
    .set((eb) => (change.addPv === undefined ? change.set : { ...change.set, personal_pv: eb('personal_pv', '+', change.addPv) }))
    .where('id', '=', change.memberId);
}

/** Where a registration enters: the row it inserts, or nothing (events of other types). */
export type MemberRegistration = (recorded: RecordedEvent) => Insertable<MembersTable> | null;

/**
 * The members read model a batch at a time (rebuilds), with the rows the events applied one by
 * one leave (core/row-changes.ts; a property test compares them: member-changes.property.int.spec.ts):
 * each member's changes folded in log order and written once, the batch's registrations inserted
 * in one statement with the changes that follow them.
 */
export function projectMembersInBatches(registration: MemberRegistration, changesOf: readonly MemberChanges[]) {
  return projectRowsInBatches({
    table: 'members',
    key: { column: 'id', type: 'uuid' },
    insertOf: (recorded) => registration(recorded) as Record<string, unknown> | null,
    changesOf: changesOf.map(
      (changes) => (recorded: RecordedEvent) =>
        changes(recorded).map((change) => ({ key: change.memberId, set: change.set as Record<string, unknown>, ...(change.addPv === undefined ? {} : { add: { personal_pv: change.addPv } }) })),
    ),
  });
}

/**
 * projectMembersInBatches inside PostgreSQL (rebuilds' `applyAt`: the batch by log position, one
 * statement, core/row-changes-at.ts), from each capability's changes in SQL; the same rows
 * (member-changes.property.int.spec.ts compares it with the event-by-event functions).
 */
export function projectMembersAt(spec: { registrations: RawBuilder<unknown>; changes: readonly RawBuilder<unknown>[]; settable: readonly string[] }) {
  return projectRowsAt({
    table: 'members',
    key: { column: 'id', type: 'uuid' },
    inserts: spec.registrations,
    changes: sql.join(spec.changes.map((changes) => sql`(${changes})`), sql` union all `),
    settable: spec.settable,
    addable: ['personal_pv'],
  });
}
