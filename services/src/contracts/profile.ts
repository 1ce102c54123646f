import { z } from 'zod';
import { isStorableText, unstorableTextMessage } from './fields';

/**
 * The member's profile, bank account and the admin's per-member actions (seed 000 §2.6, §3
 * "Profile", §5 bank form; seed 001 §2.11, §3.11, §3.12, §7.3). Field names are the seeds' contract.
 */

/**
 * A required text field of at most `max` characters. The too-long message is given here: a check
 * without its own message would answer with the string's `error` ('... field is required.').
 */
const required = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .refine(isStorableText, unstorableTextMessage(label));
const email = z.string({ error: 'The email field is required.' }).trim().min(1, 'The email field is required.').pipe(z.email('The email must be a valid email address.'));
const phone = required('phone').regex(/^\+?[0-9 ()-]{7,20}$/, 'The phone must be a valid phone number.');

export const GENDERS = ['male', 'female'] as const;
export const gender = z.enum(GENDERS, { error: 'The gender must be male or female.' });
export type Gender = z.infer<typeof gender>;

/** A flag sent as JSON boolean, 0/1 or their string forms (forms send strings). */
const flag = (label: string) =>
  z.union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '1', '0'])], { error: `The ${label} field must be true or false.` })
    .transform((v) => v === true || v === 1 || v === 'true' || v === '1');

/** POST /users/create-profile (multipart; `image` optional). */
export const createProfileFields = z.object({
  address: required('address', 500),
  gender,
  phone,
});

/** POST /users/{id}/update-profile (multipart; `image` optional on update). */
export const updateProfileFields = z.object({
  first_name: required('first name', 100),
  last_name: required('last name', 100),
  phone,
  gender,
  address: required('address', 500),
});

/** PUT /users/{id}/update */
export const updateUserBody = z.object({
  first_name: required('first name', 100),
  last_name: required('last name', 100),
  phone,
});

export const ACCOUNT_NUMBER_PATTERN = /^\d{10}$/;
const accountNumber = (field: string) => required(field).regex(ACCOUNT_NUMBER_PATTERN, `The ${field} must be 10 digits.`);
const optionalCode = z.string().trim().optional().nullable().transform((v) => v || null);

/** POST /payments/verify-bank-details; `bank_code` found from the bank list by name when missing. */
export const verifyBankBody = z.object({
  bank_name: required('bank name'),
  account_number: accountNumber('account number'),
  bank_code: optionalCode,
});

/**
 * PUT /users/{id}/update-bank-details. `bank_account_name` is accepted for the old client's sake but
 * never stored: the server asks the gateway for the account's name.
 */
export const updateBankBody = z.object({
  bank_name: required('bank name'),
  bank_account_number: accountNumber('bank account number'),
  bank_account_name: z.string().optional().nullable(),
  bank_code: optionalCode,
});

/** PUT /users/{id}/bank-editable */
export const bankEditableBody = z.object({ bank_editable: flag('bank editable') });

/** POST /users/{id}/invite-guest. `referrer`: where the guest is placed (the member or one of their downline). */
export const inviteGuestBody = z.object({
  email,
  referrer: z.string().trim().optional().nullable().transform((v) => v || null),
});

/** POST /users/{id}/send-message */
export const sendMessageBody = z.object({
  subject: required('subject', 200),
  body: required('body', 10_000),
});

/** GET /users/{id}/profile-details: null `data` means the member has not submitted a profile. */
export const profileDetails = z.object({
  photo_path: z.string().nullable(),
  address: z.string().nullable(),
  gender: gender.nullable(),
  bank_name: z.string().nullable(),
  bank_account_name: z.string().nullable(),
  bank_account_number: z.string().nullable(),
  bank_code: z.string().nullable(),
  /** True while the member may change their own bank details (seed 000 §6). */
  bank_editable: z.boolean(),
  enable_2fa: z.boolean(),
  phone: z.string(),
});
export type ProfileDetails = z.infer<typeof profileDetails>;

/** GET /users/{id}/profile: the profile (fields null before one is submitted) and who the member is. */
export const memberProfile = profileDetails.extend({
  uuid: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  username: z.string(),
  package_id: z.number(),
  /** The package's name. */
  package: z.string().nullable(),
  has_profile: z.boolean(),
});
export type MemberProfile = z.infer<typeof memberProfile>;

/** GET /users/{id}/user: the member as the admin members list shows it (seed 001 §3.11). */
export const memberListRow = z.object({
  uuid: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  username: z.string(),
  phone: z.string(),
  package_id: z.number(),
  package_name: z.string().nullable(),
  rank_id: z.number().nullable(),
  photo_path: z.string().nullable(),
  created_at: z.string(),
  is_stockist: z.boolean(),
  stockist_package_name: z.string().nullable(),
  stockist_status: z.enum(['pending', 'approved', 'disapproved']).nullable(),
  /** When the stockist was approved, else when it applied. */
  stockist_created_at: z.string().nullable(),
  /** Active: registration paid and approved, not deactivated. */
  status: z.boolean(),
});
export type MemberListRow = z.infer<typeof memberListRow>;

/** GET /payments/banks */
export const bankListItem = z.object({ bank: z.string(), code: z.string() });
export type BankListItem = z.infer<typeof bankListItem>;

/** POST /payments/verify-bank-details answer: the name is the bank's, never the client's. */
export const verifiedBank = z.object({ bank_code: z.string(), bank_name: z.string(), account_number: z.string(), account_name: z.string() });
export type VerifiedBank = z.infer<typeof verifiedBank>;

/** GET /front-page-message: the login page's notice, shown when `show` is true. */
export const frontPageMessage = z.object({ show: z.boolean(), subject: z.string(), message: z.string() });
export type FrontPageMessage = z.infer<typeof frontPageMessage>;

export { profileMessages } from './profile-messages';

/** Refusals the member sees. */
export const profileRefusals = {
  bankLocked: 'Bank details can only be changed when an administrator allows it.',
  accountNotVerified: 'We could not verify this account. Check the bank and account number.',
  bankUnknown: 'The selected bank is not in the list of banks.',
  gatewayDown: 'The bank verification service is not answering. Please try again shortly.',
  referrerUnknown: 'The placement (referrer) does not exist.',
  referrerOutsideNetwork: 'The placement (referrer) must be you or a member of your downline.',
} as const;
