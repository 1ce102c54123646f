import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import { profileRefusals } from '../contracts/profile';
import type {
  Gender,
  MemberBankDetailsChanged,
  MemberDetailsUpdated,
  MemberInvitedGuest,
  MemberMessaged,
  ProfileEvent,
} from './events';

/**
 * The rules of a member's profile (seed 000 §2.6, §6; seed 001 §2.11):
 *
 * - The first profile a member saves is *submitted*; every later save is an *update* (whichever
 *   path saved it: create-profile or update-profile). An update that changes nothing records nothing.
 * - Bank details: a member may change their own only while `bank_editable` is true. It starts
 *   true, so the member can give their account the first time without asking anyone. Saving their
 *   details uses the permission up (bank_editable becomes false), so any later change needs an
 *   admin to allow it again. An admin may always change a member's bank details; an admin's save
 *   leaves the permission as the admin set it. An admin who turns the permission off before the
 *   member ever gave an account has decided so: the member then needs it turned on again.
 * - The account name stored is the one the gateway resolved (the route asks it); the decider
 *   never sees the client's name.
 */
export type BankAccount = Omit<MemberBankDetailsChanged['data'], 'member_id'>;
export type MemberDetails = Omit<MemberDetailsUpdated['data'], 'member_id'>;
type Profile = { address: string; gender: Gender; photo_path: string | null };

export type ProfileState = { profile: Profile | null; bank: BankAccount | null; bankEditable: boolean };

export type ProfileCommand =
  | {
      type: 'SaveProfile';
      data: {
        member_id: string;
        address: string;
        gender: Gender;
        /** A photo uploaded with this save; null keeps the current one. */
        new_photo_path: string | null;
        details: MemberDetails;
        /** The member's names and phone as they stand (from the members table). */
        current_details: MemberDetails;
      };
    }
  | { type: 'UpdateMemberDetails'; data: { member_id: string; details: MemberDetails; current_details: MemberDetails } }
  | { type: 'ChangeBankDetails'; data: { member_id: string; account: BankAccount; by: 'member' | 'admin' } }
  | { type: 'SetBankEditability'; data: { member_id: string; bank_editable: boolean } }
  | { type: 'RecordGuestInvitation'; data: MemberInvitedGuest['data'] }
  | { type: 'RecordMemberMessaged'; data: MemberMessaged['data'] };

export const initialProfileState = (): ProfileState => ({ profile: null, bank: null, bankEditable: true });

export function evolveProfile(state: ProfileState, event: ProfileEvent): ProfileState {
  switch (event.type) {
    case 'MemberProfileSubmitted':
    case 'MemberProfileUpdated': {
      const { address, gender, photo_path } = event.data;
      return { ...state, profile: { address, gender, photo_path } };
    }
    case 'MemberBankDetailsChanged': {
      const { member_id: _memberId, ...account } = event.data;
      return { ...state, bank: account };
    }
    case 'MemberBankEditabilityChanged':
      return { ...state, bankEditable: event.data.bank_editable };
    case 'MemberDetailsUpdated':
    case 'MemberInvitedGuest':
    case 'MemberMessaged':
      return state;
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

const sameDetails = (a: MemberDetails, b: MemberDetails) => a.first_name === b.first_name && a.last_name === b.last_name && a.phone === b.phone;
const sameAccount = (a: BankAccount, b: BankAccount) =>
  a.bank_code === b.bank_code && a.account_number === b.account_number && a.account_name === b.account_name && a.bank_name === b.bank_name;

function detailsEvents(memberId: string, details: MemberDetails, current: MemberDetails): ProfileEvent[] {
  return sameDetails(details, current) ? [] : [{ type: 'MemberDetailsUpdated', data: { member_id: memberId, ...details } }];
}

export function decideProfile(command: ProfileCommand, state: ProfileState): ProfileEvent[] {
  switch (command.type) {
    case 'SaveProfile': {
      const { member_id, address, gender, new_photo_path, details, current_details } = command.data;
      const events = detailsEvents(member_id, details, current_details);
      if (!state.profile) {
        return [...events, { type: 'MemberProfileSubmitted', data: { member_id, address, gender, photo_path: new_photo_path } }];
      }
      const next: Profile = { address, gender, photo_path: new_photo_path ?? state.profile.photo_path };
      const unchanged = next.address === state.profile.address && next.gender === state.profile.gender && next.photo_path === state.profile.photo_path;
      return unchanged ? events : [...events, { type: 'MemberProfileUpdated', data: { member_id, ...next } }];
    }
    case 'UpdateMemberDetails':
      return detailsEvents(command.data.member_id, command.data.details, command.data.current_details);
    case 'ChangeBankDetails': {
      const { member_id, account, by } = command.data;
      if (by === 'member' && !state.bankEditable) throw new RuleViolation(profileRefusals.bankLocked, 'bank_account_number');
      if (state.bank && sameAccount(state.bank, account)) return [];
      const changed: ProfileEvent = { type: 'MemberBankDetailsChanged', data: { member_id, ...account } };
      if (by === 'admin') return [changed];
      return [changed, { type: 'MemberBankEditabilityChanged', data: { member_id, bank_editable: false, reason: 'member_saved_bank_details' } }];
    }
    case 'SetBankEditability':
      return state.bankEditable === command.data.bank_editable
        ? []
        : [{ type: 'MemberBankEditabilityChanged', data: { ...command.data, reason: 'admin_decision' } }];
    case 'RecordGuestInvitation':
      return [{ type: 'MemberInvitedGuest', data: command.data }];
    case 'RecordMemberMessaged':
      return [{ type: 'MemberMessaged', data: command.data }];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const profileDecider: Decider<ProfileState, ProfileCommand, ProfileEvent> = {
  initialState: initialProfileState,
  evolve: evolveProfile,
  decide: decideProfile,
};
