import { z } from 'zod';

/**
 * The back office's members resource (GET /api/admin/members[/:id], ra-data-simple-rest; seed 001
 * §2.10, §3.11, §3.12). `id` is the member's uuid. `status` is the active flag (registration paid
 * and approved, not deactivated). The stockist columns describe the member's stockist record (the
 * approved one, else the latest application): null when the member never applied.
 * stockist_created_at is when it was approved (when it was applied for, while not approved).
 */
export const adminMember = z.object({
  id: z.string(),
  uuid: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  email: z.string(),
  username: z.string(),
  phone: z.string(),
  package_id: z.number(),
  package_name: z.string().nullable(),
  rank_id: z.number().nullable(),
  rank_name: z.string().nullable(),
  photo_path: z.string().nullable(),
  created_at: z.string(),
  status: z.boolean(),
  is_stockist: z.boolean(),
  stockist_package_name: z.string().nullable(),
  stockist_status: z.enum(['pending', 'approved', 'disapproved']).nullable(),
  stockist_created_at: z.string().nullable(),
});
export type AdminMember = z.infer<typeof adminMember>;

/** GET /api/admin/members/:id: the list row plus the profile flags the per-member panels switch. */
export const adminMemberDetail = adminMember.extend({
  sponsor_username: z.string().nullable(),
  has_profile: z.boolean(),
  address: z.string().nullable(),
  gender: z.enum(['male', 'female']).nullable(),
  bank_name: z.string().nullable(),
  bank_code: z.string().nullable(),
  bank_account_name: z.string().nullable(),
  bank_account_number: z.string().nullable(),
  /** No profile row yet: true (the member may give their account the first time). */
  bank_editable: z.boolean(),
  enable_2fa: z.boolean(),
  email_verified: z.boolean(),
});
export type AdminMemberDetail = z.infer<typeof adminMemberDetail>;
