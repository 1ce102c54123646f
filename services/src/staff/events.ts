import type { DomainEvent } from '../core/event-store';
import type { AdminRole } from '../contracts/auth';

/** Back-office accounts, one stream per admin: `admin-<uuid>`. */
export type AdminCreated = DomainEvent<'AdminCreated', { admin_id: string; name: string; email: string; role: AdminRole }>;
export type AdminTwoFactorChanged = DomainEvent<'AdminTwoFactorChanged', { admin_id: string; enabled: boolean }>;
export type AdminPasswordChanged = DomainEvent<'AdminPasswordChanged', { admin_id: string; reason: 'reset' | 'change' }>;

export type AdminEvent = AdminCreated | AdminTwoFactorChanged | AdminPasswordChanged;

export const adminStream = (adminId: string) => `admin-${adminId}`;
