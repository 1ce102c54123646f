import { changedFields } from '../core/changes';
import type { Decider } from '../core/command';
import { NotFound, RuleViolation } from '../core/errors';
import type { DomainEvent } from '../core/event-store';
import { type CatalogueKind, type EntryFields, notFoundMessage } from './kinds';

/**
 * The life of every catalogue entry (packages, ranks, incentives, company banks, stockist packages,
 * products, service providers, product services): defined once, then edited field by field, and,
 * for the kinds that allow it, removed. An edit records only what it changes, with the previous
 * values; an edit that changes nothing records nothing (a resend is harmless); a removed entry
 * cannot be edited; removing twice records nothing the second time.
 */
export type EntryState<Fields extends EntryFields> =
  | { status: 'none' }
  | { status: 'defined'; fields: Fields }
  | { status: 'removed'; fields: Fields };

export type EntryCommand<Fields extends EntryFields> =
  | { type: 'Define'; id: number; fields: Fields }
  | { type: 'Update'; id: number; changes: Partial<Fields> }
  | { type: 'Remove'; id: number };

type EntryEventData = Record<string, unknown>;

export function entryDecider<Fields extends EntryFields>(kind: CatalogueKind<Fields>): Decider<EntryState<Fields>, EntryCommand<Fields>, DomainEvent<string, EntryEventData>> {
  const types = { defined: `${kind.prefix}Defined`, updated: `${kind.prefix}Updated`, removed: `${kind.prefix}Removed` };

  function evolve(state: EntryState<Fields>, event: DomainEvent<string, EntryEventData>): EntryState<Fields> {
    if (event.type === types.defined) {
      const { [kind.idField]: _id, ...fields } = event.data;
      return { status: 'defined', fields: fields as Fields };
    }
    if (state.status === 'none') return state;
    if (event.type === types.updated) return { ...state, fields: { ...state.fields, ...(event.data.changes as Partial<Fields>) } };
    if (event.type === types.removed) return { status: 'removed', fields: state.fields };
    return state;
  }

  function decide(command: EntryCommand<Fields>, state: EntryState<Fields>): DomainEvent<string, EntryEventData>[] {
    const id = { [kind.idField]: command.id };
    switch (command.type) {
      case 'Define':
        if (state.status !== 'none') throw new RuleViolation(`This ${kind.label} already exists.`);
        return [{ type: types.defined, data: { ...id, ...command.fields } }];
      case 'Update': {
        if (state.status === 'none') throw new NotFound(notFoundMessage(kind));
        if (state.status === 'removed') throw new RuleViolation(`This ${kind.label} has been deleted and cannot be changed.`);
        const { changes, previous, changed } = changedFields(state.fields, command.changes);
        return changed ? [{ type: types.updated, data: { ...id, changes, previous } }] : [];
      }
      case 'Remove':
        if (!kind.removable) throw new RuleViolation(`A ${kind.label} cannot be deleted.`);
        if (state.status === 'none') throw new NotFound(notFoundMessage(kind));
        return state.status === 'removed' ? [] : [{ type: types.removed, data: id }];
      default: {
        const unknownCommand: never = command;
        return unknownCommand;
      }
    }
  }

  return { initialState: () => ({ status: 'none' }), evolve, decide };
}
