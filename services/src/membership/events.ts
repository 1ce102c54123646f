import type { DomainEvent } from '../core/event-store';

/** A member's life as events, one stream per member: `member-<uuid>`. */
export type PlacementLeg = 'left' | 'right';

export type MemberRegistered = DomainEvent<
  'MemberRegistered',
  {
    member_id: string;
    username: string;
    email: string;
    first_name: string;
    last_name: string;
    phone: string;
    package_id: number;
    /** Null only for the company root. */
    sponsor_id: string | null;
    placement_parent_id: string | null;
    placement_leg: PlacementLeg | null;
    is_root: boolean;
  }
>;
export type MemberEmailConfirmed = DomainEvent<'MemberEmailConfirmed', { member_id: string }>;
export type MemberActivated = DomainEvent<'MemberActivated', { member_id: string; package_id: number }>;
export type MemberTwoFactorChanged = DomainEvent<'MemberTwoFactorChanged', { member_id: string; enabled: boolean }>;
/** The password's value stays out of the log; this records that and why it changed. */
export type MemberPasswordChanged = DomainEvent<'MemberPasswordChanged', { member_id: string; reason: 'reset' | 'change' | 'admin' }>;

export type MemberEvent = MemberRegistered | MemberEmailConfirmed | MemberActivated | MemberTwoFactorChanged | MemberPasswordChanged;

export const memberStream = (memberId: string) => `member-${memberId}`;
