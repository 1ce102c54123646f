import { type Transaction, sql } from 'kysely';
import { batchRange } from '../core/batch-range';
import type { Database } from '../database';
import { REGISTRATION_WINDOW_DAYS } from './events';

/**
 * The members read model rebuilt inside PostgreSQL, a batch of log positions in ONE statement
 * written for the members table and its eleven event types (read-models.ts `members`). It leaves
 * the rows the commands' functions leave applying the same events one at a time (memberRegisteredRow,
 * memberChanges, memberDetailsChanges, withdrawalAmountChanges, stockistFlagChanges;
 * member-changes.property.int.spec.ts compares them), with typed columns instead of
 * core/row-changes-at.ts's generic jsonb fold, which cost in SQL what the fold cost in node
 * (decision 68):
 * - every event of the batch becomes one typed row holding the values it sets (ranks are not
 *   here: member_points holds them, decision 86); a registration sets every column a new row gets;
 * - a registration inserts only when the member has no row before the statement (`on conflict do
 *   nothing` one by one, rows are never deleted): the first of the batch is then the row's base and
 *   only the changes after it count (those before updated nothing); a member who already had a
 *   row gets every change of the batch; a member with neither is left alone (an UPDATE of a missing
 *   row does nothing);
 * - columns are set in groups, each group by fixed event types (package: registration, activation,
 *   upgrade; updated_at: every type but the stockist flag…): per member and group, the
 *   values of its LAST event in log order (by the event's place in the batch, never by time); PV
 *   is summed;
 * - the new members are inserted with the groups folded in, the others updated once each.
 * Nothing is joined CTE to CTE (the planner guesses a hundred rows for the batch's `unnest`, which
 * made such joins nested loops: decision 68): a window over each member's rows finds its base and
 * the last event of each group, and one GROUP BY makes its row.
 */
export async function projectMembersAt(trx: Transaction<Database>, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  await sql`
    with batch as materialized (
      select p.ord, e.type, e.data, e.recorded_at, e.transaction_id, e.global_position
      from unnest(${sql.val(positions)}::bigint[]) with ordinality as p(position, ord) join events e on e.global_position = p.position and ${batchRange(positions, 'e.global_position')}),
    -- One typed row per change: the member, its place in the log (ord)
    -- and, in the columns of what it sets, its values (null elsewhere: which columns a type sets is
    -- said by the groups below, never by a null).
    changes as (
      select (data->>'member_id')::uuid as member, ord as key, type, recorded_at as at, transaction_id as xid, global_position as pos,
        data->>'username' as username, data->>'email' as email, data->>'first_name' as first_name, data->>'last_name' as last_name, data->>'phone' as phone,
        (data->>'package_id')::int as package_id, (data->>'sponsor_id')::uuid as sponsor_id,
        (data->>'placement_parent_id')::uuid as parent, data->>'placement_leg' as leg, coalesce((data->>'is_root')::boolean, false) as is_root,
        case when coalesce((data->>'is_root')::boolean, false) then null else recorded_at + ${REGISTRATION_WINDOW_DAYS * 24} * interval '1 hour' end as expires,
        null::boolean as enabled, null::text as preference, null::bigint as amount, null::bigint as pv,
        -- a registration inserts only where the member has no row yet (before this statement)
        not exists (select 1 from members m where m.id = (data->>'member_id')::uuid) as inserts
      from batch where type = 'MemberRegistered'
      union all
      select (data->>'member_id')::uuid, ord, type, recorded_at, transaction_id, global_position,
        null, null,
        case type when 'MemberDetailsUpdated' then data->>'first_name' end, case type when 'MemberDetailsUpdated' then data->>'last_name' end,
        case type when 'MemberDetailsUpdated' then data->>'phone' end,
        case type when 'MemberActivated' then (data->>'package_id')::int when 'MemberPackageUpgraded' then (data->>'to_package_id')::int end,
        null,
        -- an expiry frees the place (null), a reinstatement takes one
        case type when 'MemberReinstated' then (data->>'placement_parent_id')::uuid end, case type when 'MemberReinstated' then data->>'placement_leg' end, null,
        -- the registration window: closed by an activation (null), reopened by a reinstatement
        case type when 'MemberReinstated' then (data->>'expires_at')::timestamptz end,
        case type when 'MemberTwoFactorChanged' then (data->>'enabled')::boolean end,
        case type when 'MemberPlacementPreferenceChanged' then data->>'preference' end,
        case type when 'WithdrawalAmountSet' then (data->>'amount_kobo')::bigint end,
        case type when 'MemberActivated' then coalesce((data->>'point_value')::numeric, 0) when 'MemberPackageUpgraded' then coalesce((data->>'point_value_added')::numeric, 0) end::bigint,
        false
      from batch where type in (${sql.join(CHANGE_TYPES.map((t) => sql.lit(t)))})),
    -- In one window per member: its base (its first registration of the batch, when that inserts)
    -- and, per group of columns, the key of the group's last change (registrations aside).
    lasts as (
      select *,
        min(key) filter (where inserts) over m as base,
        max(key) filter (where type = 'MemberDetailsUpdated') over m as c_names,
        max(key) filter (where type in ('MemberActivated', 'MemberPackageUpgraded')) over m as c_package,
        max(key) filter (where type in ('MemberActivated', 'MemberReinstated')) over m as c_expires,
        max(key) filter (where type in ('MemberRegistrationExpired', 'MemberReinstated')) over m as c_expired,
        max(key) filter (where type in ('MemberRegistrationExpired', 'MemberReinstated')) over m as c_placement,
        max(key) filter (where type = 'MemberActivated') over m as c_activated,
        max(key) filter (where type = 'MemberEmailConfirmed') over m as c_email,
        max(key) filter (where type = 'MemberTwoFactorChanged') over m as c_2fa,
        max(key) filter (where type = 'MemberPlacementPreferenceChanged') over m as c_preference,
        max(key) filter (where type = 'WithdrawalAmountSet') over m as c_amount,
        max(key) filter (where type not in ('MemberRegistered', 'StockistApproved')) over m as c_updated
      from changes window m as (partition by member)),
    -- What counts: for a new member (a base) its base and the changes after it, for any other every
    -- change; registrations other than a base insert nothing. So a group's last counted event is its
    -- last change when that counts, else (for a group a registration sets) the base.
    counted as (
      select *,
        ${lastOf('c_names', true)} as k_names, ${lastOf('c_package', true)} as k_package, ${lastOf('c_expires', true)} as k_expires,
        ${lastOf('c_expired', false)} as k_expired, ${lastOf('c_placement', true)} as k_placement, ${lastOf('c_activated', false)} as k_activated,
        ${lastOf('c_email', false)} as k_email, ${lastOf('c_2fa', false)} as k_2fa, ${lastOf('c_preference', false)} as k_preference,
        ${lastOf('c_amount', false)} as k_amount, ${lastOf('c_updated', true)} as k_updated,
        type <> 'MemberRegistered' and (base is null or key > base) as counts
      from lasts),
    -- One row per member: each group's values from its last event (and whether the group was set).
    folded as materialized (
      select member, min(base) as base,
        max(username) filter (where key = base) as username, max(email) filter (where key = base) as email,
        (array_agg(sponsor_id) filter (where key = base))[1] as sponsor_id, bool_or(is_root) filter (where key = base) as is_root,
        max(package_id) filter (where key = base) as reg_package_id, max(at) filter (where key = base) as created_at,
        max(xid) filter (where key = base) as registered_xid, max(pos) filter (where key = base) as registered_position,
        max(k_names) is not null as names_set, max(first_name) filter (where key = k_names) as first_name,
        max(last_name) filter (where key = k_names) as last_name, max(phone) filter (where key = k_names) as phone,
        max(k_package) is not null as package_set, max(package_id) filter (where key = k_package) as package_id,
        max(xid) filter (where key = k_package) as package_xid, max(pos) filter (where key = k_package) as package_position,
        max(k_expires) is not null as expires_set, max(expires) filter (where key = k_expires) as registration_expires_at,
        max(k_expired) is not null as expired_set, max(at) filter (where key = k_expired and type = 'MemberRegistrationExpired') as registration_expired_at,
        max(k_placement) is not null as placement_set, (array_agg(parent) filter (where key = k_placement))[1] as placement_parent_id,
        max(leg) filter (where key = k_placement) as placement_leg,
        max(k_activated) is not null as activated_set, max(at) filter (where key = k_activated) as activated_at,
        max(xid) filter (where key = k_activated) as activated_xid, max(pos) filter (where key = k_activated) as activated_position,
        max(k_email) is not null as email_set, max(at) filter (where key = k_email) as email_verified_at,
        max(k_2fa) is not null as twofa_set, bool_or(enabled) filter (where key = k_2fa) as enable_2fa,
        max(k_preference) is not null as preference_set, max(preference) filter (where key = k_preference) as placement_preference,
        max(k_amount) is not null as amount_set, max(amount) filter (where key = k_amount) as withdrawal_amount,
        coalesce(bool_or(type = 'StockistApproved') filter (where counts), false) as stockist_set,
        max(k_updated) is not null as updated_set, max(at) filter (where key = k_updated) as updated_at,
        coalesce(sum(pv) filter (where counts), 0)::bigint as pv
      from counted group by member),
    inserted as (
      insert into members (
        id, username, email, first_name, last_name, phone, package_id, reg_package_id, sponsor_id, placement_parent_id, placement_leg, is_root,
        email_verified_at, enable_2fa, activated_at, is_stockist, withdrawal_amount, created_at, updated_at, personal_pv,
        registration_expires_at, registration_expired_at, registered_xid, registered_position, activated_xid, activated_position,
        package_xid, package_position, placement_preference)
      select member, username, email, first_name, last_name, phone, package_id, reg_package_id, sponsor_id, placement_parent_id, placement_leg, is_root,
        email_verified_at, coalesce(enable_2fa, false), activated_at, stockist_set, coalesce(withdrawal_amount, 0), created_at, updated_at, pv,
        registration_expires_at, registration_expired_at, registered_xid, registered_position, activated_xid, activated_position,
        package_xid, package_position, placement_preference
      from folded where base is not null
      on conflict (id) do nothing)
    -- Every member that had a row before this statement (the UPDATE does not see the rows the
    -- insert adds: one snapshot), once, with the groups its events set.
    update members m set
      first_name = case when f.names_set then f.first_name else m.first_name end,
      last_name = case when f.names_set then f.last_name else m.last_name end,
      phone = case when f.names_set then f.phone else m.phone end,
      package_id = case when f.package_set then f.package_id else m.package_id end,
      package_xid = case when f.package_set then f.package_xid else m.package_xid end,
      package_position = case when f.package_set then f.package_position else m.package_position end,
      registration_expires_at = case when f.expires_set then f.registration_expires_at else m.registration_expires_at end,
      registration_expired_at = case when f.expired_set then f.registration_expired_at else m.registration_expired_at end,
      placement_parent_id = case when f.placement_set then f.placement_parent_id else m.placement_parent_id end,
      placement_leg = case when f.placement_set then f.placement_leg else m.placement_leg end,
      activated_at = case when f.activated_set then f.activated_at else m.activated_at end,
      activated_xid = case when f.activated_set then f.activated_xid else m.activated_xid end,
      activated_position = case when f.activated_set then f.activated_position else m.activated_position end,
      email_verified_at = case when f.email_set then f.email_verified_at else m.email_verified_at end,
      enable_2fa = case when f.twofa_set then f.enable_2fa else m.enable_2fa end,
      placement_preference = case when f.preference_set then f.placement_preference else m.placement_preference end,
      withdrawal_amount = case when f.amount_set then f.withdrawal_amount else m.withdrawal_amount end,
      is_stockist = m.is_stockist or f.stockist_set,
      updated_at = case when f.updated_set then f.updated_at else m.updated_at end,
      personal_pv = m.personal_pv + f.pv
    from folded f
    where m.id = f.member and f.base is null`.execute(trx);
}

/** A group's last counted key from its last change's (`c_…`) and the member's base (see `counted`). */
const lastOf = (change: string, registrationSets: boolean) => {
  const c = sql.id(change);
  return registrationSets ? sql`case when base is null or ${c} > base then ${c} else base end` : sql`case when base is null or ${c} > base then ${c} end`;
};

/** The types that change a member's row other than a registration (the batch holds only the model's types; any other is ignored). */
const CHANGE_TYPES = [
  'MemberEmailConfirmed', 'MemberActivated', 'MemberPackageUpgraded', 'MemberRegistrationExpired', 'MemberReinstated', 'MemberTwoFactorChanged',
  'MemberPlacementPreferenceChanged', 'MemberDetailsUpdated', 'WithdrawalAmountSet', 'StockistApproved',
];
