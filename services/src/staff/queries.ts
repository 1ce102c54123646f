import { type Selectable, sql } from 'kysely';
import type { AuthAdmin } from '../contracts/auth';
import type { Executor } from '../core/db';
import type { AdminsTable } from '../database';

export type AdminRow = Selectable<AdminsTable>;

export async function findAdminByEmail(db: Executor, email: string): Promise<AdminRow | undefined> {
  return db.selectFrom('admins').selectAll().where(sql`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function findAdmin(db: Executor, id: string): Promise<AdminRow | undefined> {
  return db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirst();
}

export function toAuthAdmin(row: AdminRow): AuthAdmin {
  return { uuid: row.id, name: row.name, email: row.email, role: row.role, enable_2fa: row.enable_2fa, is_admin: true };
}
