import type { DomainEvent } from '../core/event-store';

/**
 * A member's profile as events, one stream per member: `member-profile-<uuid>`. Who did each
 * (the member or an admin) is the actor in the event's metadata.
 */
export type Gender = 'male' | 'female';

/** The first profile: what the member filled in, and the photo's stored path (null without one). */
export type MemberProfileSubmitted = DomainEvent<
  'MemberProfileSubmitted',
  { member_id: string; address: string; gender: Gender; photo_path: string | null }
>;
/** A later change to the profile; the whole profile as it now stands. */
export type MemberProfileUpdated = DomainEvent<
  'MemberProfileUpdated',
  { member_id: string; address: string; gender: Gender; photo_path: string | null }
>;
/** Names and phone, which live on the member's row too. */
export type MemberDetailsUpdated = DomainEvent<
  'MemberDetailsUpdated',
  { member_id: string; first_name: string; last_name: string; phone: string }
>;
/** The withdrawal account, with the account name as the bank (through the gateway) gave it. */
export type MemberBankDetailsChanged = DomainEvent<
  'MemberBankDetailsChanged',
  { member_id: string; bank_name: string; bank_code: string; account_number: string; account_name: string }
>;
/**
 * Whether the member may change their own bank details. `reason`: an admin's decision, or the
 * member having used the permission by saving their details.
 */
export type MemberBankEditabilityChanged = DomainEvent<
  'MemberBankEditabilityChanged',
  { member_id: string; bank_editable: boolean; reason: 'admin_decision' | 'member_saved_bank_details' }
>;
/** An invitation mail the member sent; recorded so the log shows who mailed whom. */
export type MemberInvitedGuest = DomainEvent<
  'MemberInvitedGuest',
  { member_id: string; guest_email: string; referrer: string; placer: string | null; link: string }
>;
/** A message an admin mailed to the member. */
export type MemberMessaged = DomainEvent<'MemberMessaged', { member_id: string; to: string; subject: string; body: string }>;

export type ProfileEvent =
  | MemberProfileSubmitted
  | MemberProfileUpdated
  | MemberDetailsUpdated
  | MemberBankDetailsChanged
  | MemberBankEditabilityChanged
  | MemberInvitedGuest
  | MemberMessaged;

export const profileStream = (memberId: string) => `member-profile-${memberId}`;
