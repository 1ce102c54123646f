import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import type { AdminCreated, AdminEvent } from './events';

export type AdminState = { status: 'none' } | { status: 'active'; twoFactor: boolean };

export type AdminCommand =
  | { type: 'CreateAdmin'; data: AdminCreated['data'] }
  | { type: 'ChangeAdminTwoFactor'; data: { admin_id: string; enabled: boolean } }
  | { type: 'RecordAdminPasswordChange'; data: { admin_id: string; reason: 'reset' | 'change' } };

export function evolveAdmin(state: AdminState, event: AdminEvent): AdminState {
  switch (event.type) {
    case 'AdminCreated':
      return { status: 'active', twoFactor: false };
    case 'AdminTwoFactorChanged':
      return state.status === 'active' ? { ...state, twoFactor: event.data.enabled } : state;
    case 'AdminPasswordChanged':
      return state;
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

export function decideAdmin(command: AdminCommand, state: AdminState): AdminEvent[] {
  switch (command.type) {
    case 'CreateAdmin':
      if (state.status !== 'none') throw new RuleViolation('This admin already exists.');
      return [{ type: 'AdminCreated', data: command.data }];
    case 'ChangeAdminTwoFactor':
      if (state.status !== 'active') throw new RuleViolation('This admin does not exist.');
      return state.twoFactor === command.data.enabled ? [] : [{ type: 'AdminTwoFactorChanged', data: command.data }];
    case 'RecordAdminPasswordChange':
      if (state.status !== 'active') throw new RuleViolation('This admin does not exist.');
      return [{ type: 'AdminPasswordChanged', data: command.data }];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const adminDecider: Decider<AdminState, AdminCommand, AdminEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveAdmin,
  decide: decideAdmin,
};
