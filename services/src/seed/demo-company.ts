import { randomUUID } from 'node:crypto';
import { hashPassword } from '../auth/passwords';
import { setPassword } from '../auth/sessions';
import { createRank, defineEntry } from '../catalogue/commands';
import { catalogueKinds } from '../catalogue/kinds';
import { type CommandContext, decideOnStream, runInTransaction } from '../core/command';
import type { EventMetadata } from '../core/event-store';
import { nairaToKobo } from '../core/money';
import { reserveKey } from '../core/unique-keys';
import { memberDecider } from '../membership/decider';
import { memberStream } from '../membership/events';
import { claimRegistrationKeys } from '../membership/commands';
import { projectMembers } from '../membership/projections';
import { defineSettings } from '../settings/commands';
import type { SettingsValues } from '../settings/values';
import { adminDecider } from '../staff/decider';
import { adminStream } from '../staff/events';
import { projectAdmins } from '../staff/projections';
import { seedDemoCatalogue } from './demo-catalogue';
import type { Transaction } from 'kysely';
import type { Executor } from '../core/db';
import type { Database } from '../database';

/**
 * The demo company an empty database starts with (issue 2): six registration packages, ranks,
 * settings, the rest of the catalogue (demo-catalogue.ts), an admin and a finance login, and the company root member. Recorded as events like
 * any admin action, by the `system` actor, so the log explains where every value came from.
 */
export const demoLogins = {
  admin: { email: 'admin@herbal-portal.test', password: process.env.DEMO_ADMIN_PASSWORD ?? 'Admin#2026demo' },
  finance: { email: 'finance@herbal-portal.test', password: process.env.DEMO_FINANCE_PASSWORD ?? 'Finance#2026demo' },
  root: { username: 'herbalhq', email: 'hq@herbal-portal.test', password: process.env.DEMO_ROOT_PASSWORD ?? 'Member#2026demo' },
} as const;

const packages: Array<[number, string, number, number, number, number]> = [
  // id, name, PV, registration ₦, pick-up ₦, matching cap ₦ per cycle
  [1, 'Starter', 10, 15_000, 12_000, 50_000],
  [2, 'Bronze', 25, 35_000, 30_000, 100_000],
  [3, 'Silver', 50, 70_000, 60_000, 200_000],
  [4, 'Gold', 100, 140_000, 120_000, 400_000],
  [5, 'Diamond', 200, 280_000, 240_000, 800_000],
  [6, 'Crown', 400, 560_000, 480_000, 1_600_000],
];

const ranks: Array<[number, string, number, boolean, number, string]> = [
  // id, name, CPV points, global-profit eligible, minimum package id, description
  [1, 'Associate', 0, false, 1, 'Every active member starts here.'],
  [2, 'Supervisor', 500, false, 1, 'A first team of active members.'],
  [3, 'Manager', 2_000, false, 2, 'A growing network on two legs.'],
  [4, 'Senior Manager', 10_000, false, 3, 'A network that sustains itself.'],
  [5, 'Director', 50_000, true, 4, 'Shares in the global profit.'],
  [6, 'Senior Director', 150_000, true, 5, 'Leads several Directors.'],
  [7, 'Crown Ambassador', 500_000, true, 6, 'The top of the plan.'],
];

export const demoSettings: SettingsValues = {
  default_referral_code: demoLogins.root.username,
  unit_point_value_kobo: nairaToKobo(1_000),
  equillibrum_bonus: 2,
  loyalty_bonus_percentage: 5,
  welcome_bonus_percentage: 2,
  placement_bonus_percentage: 3,
  global_profit_value_kobo: nairaToKobo(1_000_000),
  global_profit_first_percentage: 40,
  global_profit_second_percentage: 60,
  next_global_profit_share_month: 12,
  next_global_profit_share_day: 31,
  profit_pool_percentage: 2,
  profit_pool_duration: 12,
  profit_pool_days_offset: 30,
  profit_pool_num_of_downlines: 4,
  matching_bonus_total_pv: 100,
  matching_bonus_percent: 10,
  repurchase_bonus_percentage: 10,
  matching_bonus_frequency: 7,
  minimum_withdrawal_kobo: nairaToKobo(2_000),
  maximum_withdrawal_kobo: nairaToKobo(500_000),
  withdrawal_charge_type: 'percentage',
  charge: 1.5,
  charge_kobo: nairaToKobo(100),
  withdrawal_charge_cap_kobo: nairaToKobo(2_000),
  withdrawal_type: 'weekly',
  withdrawal_period: 6,
  company_phone: '+234 803 000 0000',
  company_email: 'support@herbal-portal.test',
  company_address: '12 Herbal Avenue, Ikeja, Lagos',
  award_winner_sponsor_bonus_percentage: 5,
  award_winner_dd_bonus_percentage: 2,
  stockist_referral_bonus_percentage: 5,
  home_page_message_subject: 'Welcome to Herbal Life Network',
  home_page_message: 'Natural health, shared. Register under your upline to start.',
  show_front_page_message: false,
  general_message_subject: 'Monthly leadership call',
  general_message: 'Join the leadership call on the first Saturday of every month at 4 pm.',
};

/** Seeds the demo company once; a second call (or a concurrent one) does nothing. Returns whether it seeded. */
export async function seedDemoCompany(ctx: CommandContext, now: Date = new Date()): Promise<boolean> {
  const [adminHash, financeHash, rootHash] = await Promise.all([
    hashPassword(demoLogins.admin.password),
    hashPassword(demoLogins.finance.password),
    hashPassword(demoLogins.root.password),
  ]);
  return runInTransaction(ctx, async (trx) => {
    if (await companySeeded(trx)) return false;
    if (!(await reserveKey(trx, 'seed', 'demo-company', 'system'))) return false;
    const metadata: EventMetadata = { actor: { type: 'system', id: 'seed' }, now: now.toISOString(), causation_id: null, correlation_id: 'seed-demo-company' };

    await seedPlan(trx, demoSettings, metadata);
    await seedDemoCatalogue(trx, metadata);
    await createAdmin(trx, { email: demoLogins.admin.email, name: 'Demo Administrator', role: 'admin', passwordHash: adminHash }, metadata, now);
    await createAdmin(trx, { email: demoLogins.finance.email, name: 'Demo Finance Officer', role: 'finance', passwordHash: financeHash }, metadata, now);
    await createRootMember(trx, { username: demoLogins.root.username, email: demoLogins.root.email, passwordHash: rootHash }, metadata, now);
    return true;
  });
}

/** Whether a company (demo or real) was seeded already. */
export async function companySeeded(trx: Executor): Promise<boolean> {
  const row = await trx.selectFrom('unique_keys').select('key').where('scope', '=', 'seed').where('key', 'in', ['demo-company', 'company']).executeTakeFirst();
  return row !== undefined;
}

/** Packages, ranks and settings: what every company starts with. Ids are given in order on an empty database: packages 1..6, ranks 1..7. */
export async function seedPlan(trx: Transaction<Database>, settings: SettingsValues, metadata: EventMetadata): Promise<void> {
  for (const [, name, pv, registration, pickup, cap] of packages) {
    const fields = { name, point_value: pv, registration_value_kobo: nairaToKobo(registration), pickup_amount_kobo: nairaToKobo(pickup), matching_bonus_cap_kobo: nairaToKobo(cap) };
    await defineEntry(trx, catalogueKinds.package, fields, metadata);
  }
  for (const [, name, points, eligible, packageId, description] of ranks) {
    await createRank(trx, { name, points, is_global_profit_eligible: eligible, package_id: packageId, description }, metadata);
  }
  await defineSettings(trx, settings, metadata);
}

export async function createAdmin(
  trx: Transaction<Database>,
  admin: { email: string; name: string; role: 'admin' | 'finance'; passwordHash: string | null },
  metadata: EventMetadata,
  now: Date,
): Promise<string> {
  const adminId = randomUUID();
  const { events } = await decideOnStream(trx, adminStream(adminId), adminDecider, { type: 'CreateAdmin', data: { admin_id: adminId, name: admin.name, email: admin.email, role: admin.role } }, metadata);
  await projectAdmins(trx, events);
  await reserveKey(trx, 'admin-email', admin.email, adminId);
  if (admin.passwordHash) await setPassword(trx, { kind: 'admin', id: adminId }, admin.passwordHash, now);
  return adminId;
}

/** The company root: active from the start, no sponsor, no placement parent; its wallet is the company's. */
export async function createRootMember(
  trx: Transaction<Database>,
  root: { username: string; email: string; passwordHash: string | null },
  metadata: EventMetadata,
  now: Date,
): Promise<string> {
  const rootId = randomUUID();
  const stream = memberStream(rootId);
  const registered = await decideOnStream(trx, stream, memberDecider, {
    type: 'RegisterMember',
    data: { member_id: rootId, username: root.username, email: root.email, first_name: 'Herbal', last_name: 'Headquarters', phone: '+2348030000000', package_id: 6, sponsor_id: null, placement_parent_id: null, placement_leg: null, is_root: true },
  }, metadata);
  await projectMembers(trx, registered.events);
  await claimRegistrationKeys(trx, { memberId: rootId, username: root.username, email: root.email, placementId: null, leg: null });
  const confirmed = await decideOnStream(trx, stream, memberDecider, { type: 'ConfirmEmail', data: { member_id: rootId } }, metadata);
  await projectMembers(trx, confirmed.events);
  const activated = await decideOnStream(trx, stream, memberDecider, { type: 'ActivateMember', data: { member_id: rootId, package_id: 6 } }, metadata);
  await projectMembers(trx, activated.events);
  if (root.passwordHash) await setPassword(trx, { kind: 'member', id: rootId }, root.passwordHash, now);
  return rootId;
}
