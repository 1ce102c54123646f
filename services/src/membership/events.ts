import { type DomainEvent, eventTypesOf } from '../core/event-store';

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
/**
 * The first approved registration payment (BUSINESS-RULES.md §2). Carries the amounts that follow
 * from it, read from the package when it happened: the PV credited and the pick-up allowance.
 * The seeded company root is activated without a payment (payment_id null).
 */
export type MemberActivated = DomainEvent<
  'MemberActivated',
  {
    member_id: string;
    package_id: number;
    payment_id?: string | null;
    registration_value_kobo?: number;
    point_value?: number;
    pickup_allowance_kobo?: number;
  }
>;
/** An approved upgrade: the package changes; PV and pick-up allowance grow by the differences. */
export type MemberPackageUpgraded = DomainEvent<
  'MemberPackageUpgraded',
  {
    member_id: string;
    payment_id: string;
    from_package_id: number;
    to_package_id: number;
    difference_kobo: number;
    point_value_added: number;
    pickup_allowance_kobo: number;
  }
>;
/** An unpaid registration 7 days old: it can no longer pay, and its placement slot is freed. */
export type MemberRegistrationExpired = DomainEvent<
  'MemberRegistrationExpired',
  { member_id: string; freed_placement_parent_id: string | null; freed_placement_leg: PlacementLeg | null }
>;
/** An admin lets an expired registration pay again, in a placement slot that is free now. */
export type MemberReinstated = DomainEvent<
  'MemberReinstated',
  { member_id: string; placement_parent_id: string; placement_leg: PlacementLeg; expires_at: string }
>;
export type MemberTwoFactorChanged = DomainEvent<'MemberTwoFactorChanged', { member_id: string; enabled: boolean }>;
/** The password's value stays out of the log; this records that and why it changed. */
export type MemberPasswordChanged = DomainEvent<'MemberPasswordChanged', { member_id: string; reason: 'reset' | 'change' | 'admin' }>;

/** How recruits spill below this member when a placement in their team is full (docs/placement.md); null: the company default. */
export type MemberPlacementPreferenceChanged = DomainEvent<
  'MemberPlacementPreferenceChanged',
  { member_id: string; preference: 'balanced' | 'extreme_left' | 'extreme_right' | 'weaker_leg' | null }
>;

export type MemberEvent =
  | MemberRegistered
  | MemberPlacementPreferenceChanged
  | MemberEmailConfirmed
  | MemberActivated
  | MemberPackageUpgraded
  | MemberRegistrationExpired
  | MemberReinstated
  | MemberTwoFactorChanged
  | MemberPasswordChanged;

export const memberEventTypes = eventTypesOf<MemberEvent>({
  MemberRegistered: true,
  MemberPlacementPreferenceChanged: true,
  MemberEmailConfirmed: true,
  MemberActivated: true,
  MemberPackageUpgraded: true,
  MemberRegistrationExpired: true,
  MemberReinstated: true,
  MemberTwoFactorChanged: true,
  MemberPasswordChanged: true,
});

/** Days an unpaid registration may wait for its payment (BUSINESS-RULES.md §2). */
export const REGISTRATION_WINDOW_DAYS = 7;

export const memberStream = (memberId: string) => `member-${memberId}`;
