import { describe, expect, it } from 'vitest';
import { RuleViolation } from '../core/errors';
import { type BankAccount, type MemberDetails, type ProfileCommand, decideProfile, evolveProfile, initialProfileState } from './decider';
import type { ProfileEvent } from './events';

/** Given past events, when a command, then these new events (or this refusal). */
const given = (past: ProfileEvent[]) => ({
  when: (command: ProfileCommand) => {
    const state = past.reduce(evolveProfile, initialProfileState());
    return {
      then: (expected: ProfileEvent[]) => expect(decideProfile(command, state)).toEqual(expected),
      thenThrows: (message: string) => {
        expect(() => decideProfile(command, state)).toThrow(RuleViolation);
        expect(() => decideProfile(command, state)).toThrow(message);
      },
      thenNothingHappened: () => expect(decideProfile(command, state)).toEqual([]),
    };
  },
});

const m = 'm1';
const details: MemberDetails = { first_name: 'Ada', last_name: 'Obi', phone: '08030000000' };
const save = (overrides: Partial<Extract<ProfileCommand, { type: 'SaveProfile' }>['data']> = {}): ProfileCommand => ({
  type: 'SaveProfile',
  data: { member_id: m, address: '1 Marina, Lagos', gender: 'female', new_photo_path: null, details, current_details: details, ...overrides },
});
const submitted: ProfileEvent = { type: 'MemberProfileSubmitted', data: { member_id: m, address: '1 Marina, Lagos', gender: 'female', photo_path: 'storage/photos/a.jpg' } };

const account: BankAccount = { bank_name: 'Test Bank', bank_code: '001', account_number: '0123456789', account_name: 'TEST ACCOUNT 6789' };
const otherAccount: BankAccount = { bank_name: 'Zenith Bank', bank_code: '057', account_number: '9876543210', account_name: 'ADA OBI' };
const bankChanged = (a: BankAccount): ProfileEvent => ({ type: 'MemberBankDetailsChanged', data: { member_id: m, ...a } });
const lockedAfterSave: ProfileEvent = { type: 'MemberBankEditabilityChanged', data: { member_id: m, bank_editable: false, reason: 'member_saved_bank_details' } };
const adminAllows: ProfileEvent = { type: 'MemberBankEditabilityChanged', data: { member_id: m, bank_editable: true, reason: 'admin_decision' } };
const adminForbids: ProfileEvent = { type: 'MemberBankEditabilityChanged', data: { member_id: m, bank_editable: false, reason: 'admin_decision' } };
const bankLocked = 'Bank details can only be changed when an administrator allows it.';

describe('profile: first submission, then updates', () => {
  it('submits the first profile, with or without a photo', () => {
    given([]).when(save({ new_photo_path: 'storage/photos/a.jpg' })).then([submitted]);
    given([]).when(save()).then([{ type: 'MemberProfileSubmitted', data: { member_id: m, address: '1 Marina, Lagos', gender: 'female', photo_path: null } }]);
  });

  it('records a later save as an update, keeping the photo when no new one comes', () => {
    given([submitted]).when(save({ address: '2 Broad St, Lagos' })).then([
      { type: 'MemberProfileUpdated', data: { member_id: m, address: '2 Broad St, Lagos', gender: 'female', photo_path: 'storage/photos/a.jpg' } },
    ]);
    given([submitted]).when(save({ new_photo_path: 'storage/photos/b.png' })).then([
      { type: 'MemberProfileUpdated', data: { member_id: m, address: '1 Marina, Lagos', gender: 'female', photo_path: 'storage/photos/b.png' } },
    ]);
  });

  it('records nothing for a save that changes nothing', () => {
    given([submitted]).when(save()).thenNothingHappened();
  });

  it('records changed names and phone beside the profile', () => {
    const newDetails = { ...details, phone: '08059999999' };
    given([submitted]).when(save({ details: newDetails })).then([{ type: 'MemberDetailsUpdated', data: { member_id: m, ...newDetails } }]);
  });

  it('updates names and phone only when they change', () => {
    const newDetails = { ...details, first_name: 'Adaeze' };
    given([]).when({ type: 'UpdateMemberDetails', data: { member_id: m, details: newDetails, current_details: details } }).then([{ type: 'MemberDetailsUpdated', data: { member_id: m, ...newDetails } }]);
    given([]).when({ type: 'UpdateMemberDetails', data: { member_id: m, details, current_details: details } }).thenNothingHappened();
  });
});

describe('bank details: the member changes them only while an admin allows it', () => {
  it('lets a member give an account the first time, and then locks further changes', () => {
    given([]).when({ type: 'ChangeBankDetails', data: { member_id: m, account, by: 'member' } }).then([bankChanged(account), lockedAfterSave]);
  });

  it('refuses a member once their details are saved', () => {
    given([bankChanged(account), lockedAfterSave]).when({ type: 'ChangeBankDetails', data: { member_id: m, account: otherAccount, by: 'member' } }).thenThrows(bankLocked);
  });

  it('lets the member change them again after an admin allows it, once', () => {
    const allowed = [bankChanged(account), lockedAfterSave, adminAllows];
    given(allowed).when({ type: 'ChangeBankDetails', data: { member_id: m, account: otherAccount, by: 'member' } }).then([bankChanged(otherAccount), lockedAfterSave]);
  });

  it('refuses a member whom an admin forbade before they ever gave an account', () => {
    given([adminForbids]).when({ type: 'ChangeBankDetails', data: { member_id: m, account, by: 'member' } }).thenThrows(bankLocked);
  });

  it('always lets an admin change them, leaving the permission as it was', () => {
    given([bankChanged(account), lockedAfterSave]).when({ type: 'ChangeBankDetails', data: { member_id: m, account: otherAccount, by: 'admin' } }).then([bankChanged(otherAccount)]);
    given([]).when({ type: 'ChangeBankDetails', data: { member_id: m, account, by: 'admin' } }).then([bankChanged(account)]);
  });

  it('records nothing when the same account is saved again', () => {
    given([bankChanged(account), lockedAfterSave, adminAllows]).when({ type: 'ChangeBankDetails', data: { member_id: m, account, by: 'member' } }).thenNothingHappened();
  });
});

describe('bank editability: an admin decision', () => {
  it('records a change of the permission, and nothing when it is already so', () => {
    given([bankChanged(account), lockedAfterSave]).when({ type: 'SetBankEditability', data: { member_id: m, bank_editable: true } }).then([adminAllows]);
    given([bankChanged(account), lockedAfterSave]).when({ type: 'SetBankEditability', data: { member_id: m, bank_editable: false } }).thenNothingHappened();
    given([]).when({ type: 'SetBankEditability', data: { member_id: m, bank_editable: false } }).then([adminForbids]);
  });
});

describe('mails the log keeps', () => {
  it('records an invitation and an admin message', () => {
    const invitation = { member_id: m, guest_email: 'guest@example.test', referrer: 'ada', placer: null, link: 'http://portal/register?ref=ada' };
    given([]).when({ type: 'RecordGuestInvitation', data: invitation }).then([{ type: 'MemberInvitedGuest', data: invitation }]);
    const message = { member_id: m, to: 'ada@example.test', subject: 'Hello', body: 'Welcome' };
    given([]).when({ type: 'RecordMemberMessaged', data: message }).then([{ type: 'MemberMessaged', data: message }]);
  });
});
