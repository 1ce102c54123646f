import type { UserType } from '../contracts/auth';
import type { Executor } from '../core/db';
import type { AccountKind } from '../database';
import { findMemberByEmail } from '../membership/queries';
import { findAdminByEmail } from '../staff/queries';

/** An account of either kind, as the sign-in flows need it. */
export type Account = {
  kind: AccountKind;
  id: string;
  name: string;
  email: string;
  enableTwoFactor: boolean;
  emailConfirmed: boolean;
};

export async function findAccountByEmail(db: Executor, userType: UserType, email: string): Promise<Account | null> {
  if (userType === 'admin') {
    const admin = await findAdminByEmail(db, email);
    return admin ? { kind: 'admin', id: admin.id, name: admin.name, email: admin.email, enableTwoFactor: admin.enable_2fa, emailConfirmed: true } : null;
  }
  const member = await findMemberByEmail(db, email);
  return member
    ? { kind: 'member', id: member.id, name: member.first_name, email: member.email, enableTwoFactor: member.enable_2fa, emailConfirmed: member.email_verified_at !== null }
    : null;
}
