import { hashPassword } from '../auth/passwords';
import { sendCode } from '../auth/code-mails';
import { type CommandContext, runInTransaction } from '../core/command';
import type { Config } from '../core/config';
import type { Db } from '../core/db';
import type { EventMetadata } from '../core/event-store';
import { reserveKey } from '../core/unique-keys';
import type { MailOutbox } from '../notifications/outbox';
import { seedBonusGenerationTables } from './demo-catalogue';
import { companySeeded, createAdmin, createRootMember, demoLogins, demoSettings, seedPlan } from './demo-company';

/**
 * A real company's first start (docs/security-auth.md, threat A1): the plan every company starts
 * with (packages, ranks, settings, bonus generation tables) and its root member, and the first
 * administrator from values the operator gives (ADMIN_EMAIL, and ADMIN_PASSWORD or a setup link).
 * No demo login, no demo catalogue (products, company bank accounts, incentives, stockist packages:
 * the administrator enters the real ones). The root member has no password: its owner sets one
 * with "forgot password" on the member app.
 */
export const MIN_ADMIN_PASSWORD_LENGTH = 12;

export class CompanySetupRefused extends Error {
  override name = 'CompanySetupRefused';
}

export type CompanySeedResult =
  | { seeded: false }
  | { seeded: true; adminEmail: string; rootUsername: string; setupLink: string | null };

export async function seedCompany(
  deps: { db: Db; commands: CommandContext; config: Config; clock: () => Date; outbox: MailOutbox },
  now: Date = deps.clock(),
): Promise<CompanySeedResult> {
  const { config } = deps;
  if (await companySeeded(deps.db)) return { seeded: false };
  const adminEmail = config.ADMIN_EMAIL;
  if (!adminEmail) {
    throw new CompanySetupRefused(
      'The database is empty and there is no company yet: set ADMIN_EMAIL (the first administrator) and either ADMIN_PASSWORD or nothing (a setup link is then printed and a code mailed), optionally ROOT_USERNAME and ROOT_EMAIL. For the demo company with its published logins, set SEED_DEMO=true (development only; `npm start` does).',
    );
  }
  const password = config.ADMIN_PASSWORD;
  const demoPasswords = new Set<string>([demoLogins.admin.password, demoLogins.finance.password, demoLogins.root.password, 'Admin#2026demo', 'Finance#2026demo', 'Member#2026demo']);
  if (password !== undefined && (password.length < MIN_ADMIN_PASSWORD_LENGTH || demoPasswords.has(password))) {
    throw new CompanySetupRefused(`ADMIN_PASSWORD must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters and not a published demo password (or leave it unset to get a setup link).`);
  }
  const passwordHash = password === undefined ? null : await hashPassword(password);
  const rootEmail = config.ROOT_EMAIL ?? adminEmail;
  const adminId = await runInTransaction(deps.commands, async (trx) => {
    if (await companySeeded(trx)) return null;
    if (!(await reserveKey(trx, 'seed', 'company', 'system'))) return null;
    const metadata: EventMetadata = { actor: { type: 'system', id: 'seed' }, now: now.toISOString(), causation_id: null, correlation_id: 'seed-company' };
    await seedPlan(trx, { ...demoSettings, default_referral_code: config.ROOT_USERNAME, company_email: adminEmail }, metadata);
    await seedBonusGenerationTables(trx, metadata);
    const id = await createAdmin(trx, { email: adminEmail, name: config.ADMIN_NAME, role: 'admin', passwordHash }, metadata, now);
    await createRootMember(trx, { username: config.ROOT_USERNAME, email: rootEmail, passwordHash: null }, metadata, now);
    return id;
  });
  if (adminId === null) return { seeded: false };
  let setupLink: string | null = null;
  if (passwordHash === null) {
    // The first administrator sets a password through the reset page with a mailed one-time code.
    await sendCode(deps, { kind: 'admin', id: adminId, email: adminEmail, name: config.ADMIN_NAME }, 'password_reset');
    setupLink = `${config.publicUrl}/admin-reset-password?email=${encodeURIComponent(adminEmail)}`;
  }
  return { seeded: true, adminEmail, rootUsername: config.ROOT_USERNAME, setupLink };
}
