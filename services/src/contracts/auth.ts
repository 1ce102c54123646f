import { z } from 'zod';
import { flag, idField, isStorableText, unstorableTextMessage } from './fields';

/**
 * Request and response shapes of /api/auth/*, shared by the api (route schemas) and both web apps
 * (form validation). Field names are the seeds' contract and may not change.
 */

/** A required text field of at most `max` characters, each refusal with its own message (a bare `.max(n)` would answer '... field is required.'). */
const required = (label: string, max = 255) => z.string({ error: `The ${label} field is required.` }).trim().min(1, `The ${label} field is required.`).max(max, `The ${label} may not be greater than ${max} characters.`).refine(isStorableText, unstorableTextMessage(label));
const email = z.string({ error: 'The email field is required.' }).trim().min(1, 'The email field is required.').max(254, 'The email may not be greater than 254 characters.').pipe(z.email('The email must be a valid email address.'));

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,30}$/;
export const PASSWORD_MIN_LENGTH = 8;

const newPassword = z
  .string({ error: 'The password field is required.' })
  .min(PASSWORD_MIN_LENGTH, `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(200, 'The password may not be greater than 200 characters.')
  .refine(isStorableText, unstorableTextMessage('password'));

export const registerBody = z.object({
  first_name: required('first name', 100),
  last_name: required('last name', 100),
  username: required('username').regex(USERNAME_PATTERN, 'The username may only contain letters, numbers, dots, dashes and underscores (3 to 30 characters).'),
  password: newPassword,
  email,
  phone: required('phone').regex(/^\+?[0-9 ()-]{7,20}$/, 'The phone must be a valid phone number.'),
  /** The *placement* (binary parent). Empty means the company's default code. */
  referrer: z.string({ error: 'The referrer must be text.' }).trim().max(100, 'The referrer may not be greater than 100 characters.').refine(isStorableText, unstorableTextMessage('referrer')).optional().default(''),
  /** The *sponsor*. Empty means the sponsor is the placement. */
  placer: z.string({ error: 'The placer must be text.' }).trim().max(100, 'The placer may not be greater than 100 characters.').refine(isStorableText, unstorableTextMessage('placer')).optional().nullable().transform((v) => v ?? ''),
  package_id: idField('The package field is required.'),
});
export type RegisterBody = z.input<typeof registerBody>;

const password = z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.').max(200, 'The password may not be greater than 200 characters.').refine(isStorableText, unstorableTextMessage('password'));
export const loginBody = z.object({ username: required('username'), password });
export const adminLoginBody = z.object({ email, password });

/**
 * `user_type` is `user` or `admin`; the old admin client sends a misspelt value for reset links, so any
 * value that is not `user` and looks like "admin" counts as admin.
 */
export const userType = z
  .string()
  .trim()
  .max(20)
  .optional()
  .transform((v, ctx) => {
    if (!v || v.toLowerCase() === 'user') return 'user' as const;
    if (/^a[dm]{1,2}i?n|^admin/i.test(v)) return 'admin' as const;
    ctx.addIssue({ code: 'custom', message: 'The selected user type is invalid.' });
    return z.NEVER;
  });
export type UserType = 'user' | 'admin';

const code = z.string({ error: 'The code field is required.' }).trim().regex(/^\d{6}$/, 'The code must be 6 digits.');

export const emailBody = z.object({ email });
export const emailConfirmationBody = z.object({ email, code });
export const resetPasswordLinkBody = z.object({ email, user_type: userType });
export const resetPasswordBody = z.object({ email, code, password: newPassword, user_type: userType });
export const sendTwoFactorBody = z.object({ email, user_type: userType });
export const authenticateTwoFactorBody = z.object({ email, code, user_type: userType });
export const changePasswordLinkBody = z.object({ email, old_password: z.string({ error: 'The old password field is required.' }).min(1, 'The old password field is required.').max(200, 'The old password may not be greater than 200 characters.').refine(isStorableText, unstorableTextMessage('old password')), user_type: userType });
export const changePasswordBody = z.object({ email, code, password: newPassword, user_type: userType });
export const adminChangeUserPasswordBody = z.object({ password: newPassword });
export const toggleTwoFactorBody = z.object({ enable_2fa: flag('two-factor setting') });

/** The signed-in member as the client reads it (seed 000 §3 "Auth user"). */
export const authUser = z.object({
  uuid: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  email: z.string(),
  phone: z.string(),
  email_verified_at: z.string().nullable(),
  package_id: z.number(),
  reg_package_id: z.number(),
  rank_id: z.number().nullable(),
  is_stockist: z.boolean(),
  /** True until the registration is paid and approved, and when an admin deactivates the member. */
  is_deactivated: z.boolean(),
  created_at: z.string(),
  enable_2fa: z.boolean(),
  /** `approved` once the registration payment is approved; null before. */
  payment: z.enum(['approved', 'pending']).nullable(),
  is_admin: z.literal(false),
  withdrawal_amount: z.number(),
  /** Unpaid registrations: when the 7-day window ends (a reinstatement opens a new one). */
  registration_expires_at: z.string().nullable(),
  /** True once an unpaid registration expired; it cannot pay until an admin reinstates it. */
  registration_expired: z.boolean(),
  access_token: z.string().optional(),
});
export type AuthUser = z.infer<typeof authUser>;

export const adminRole = z.enum(['admin', 'finance']);
export type AdminRole = z.infer<typeof adminRole>;

export const authAdmin = z.object({
  uuid: z.string(),
  name: z.string(),
  email: z.string(),
  role: adminRole,
  enable_2fa: z.boolean(),
  is_admin: z.literal(true),
  access_token: z.string().optional(),
});
export type AuthAdmin = z.infer<typeof authAdmin>;

export { authMessages } from './auth-messages';
