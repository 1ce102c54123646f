import { z } from 'zod';
import { memberListRow } from './profile';
import { pageNumber } from './fields';
import { GENEALOGY_DEFAULT_DEPTH, GENEALOGY_MAX_DEPTH } from './genealogy-depth';

/**
 * Genealogy and the admin members lists as the portal API shows them (seed 000 §2.8, §2.10, §3
 * "Upline", "Downline"; seed 001 §2.10, §2.11, §3.11, §3.13). Design: docs/genealogy.md.
 */

const leg = z.enum(['left', 'right']).nullable();

/** GET /users/{id}/upline-details: the member's sponsor; null for the company root. */
export const uplineDetails = z.object({
  uuid: z.string(),
  package: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  username: z.string(),
  photo_path: z.string().nullable(),
});
export type UplineDetails = z.infer<typeof uplineDetails>;

/** What every downline shows: the seeds' Downline (name, username, package, downlines, email, photo_path). */
const downlineFields = {
  uuid: z.string(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  email: z.string(),
  package: z.string().nullable(),
  package_id: z.number(),
  /** Everyone below this member in the placement tree. */
  downlines: z.number(),
  photo_path: z.string().nullable(),
  /** The member's leg under its placement parent. */
  leg,
  /** Registration paid and approved, not deactivated. */
  active: z.boolean(),
};

/** GET /users/{id}/direct-downlines: the members this member sponsored, in the order they joined. */
export const directDownline = z.object(downlineFields);
export type DirectDownline = z.infer<typeof directDownline>;

/** GET /users/{id}/downlines?page: the whole placement downline, 5 a page, in tree order. */
export const downline = z.object({
  ...downlineFields,
  /** Levels below the member whose downline this is (1 = a placement child). */
  level: z.number(),
});
export type Downline = z.infer<typeof downline>;

export const paged = <T extends z.ZodTypeAny>(row: T) =>
  z.object({ data: z.array(row), current_page: z.number(), last_page: z.number(), per_page: z.number(), total: z.number() });
export type Paged<T> = { data: T[]; current_page: number; last_page: number; per_page: number; total: number };

export const downlinesPage = paged(downline);

/**
 * GET /users/{id}/genealogy?depth: the org chart, the member at the top. `children` holds the
 * placement children present, left before right; an empty slot is left out (each child names its
 * `leg`, so a chart can still draw a gap). A node at the depth limit has `children: []`; its
 * `left_count` / `right_count` tell whether there is more below.
 */
export type GenealogyNode = {
  uuid: string;
  username: string;
  name: string;
  first_name: string;
  last_name: string;
  package: string | null;
  package_id: number;
  active: boolean;
  left_count: number;
  right_count: number;
  downlines: number;
  photo_path: string | null;
  leg: 'left' | 'right' | null;
  level: number;
  children: GenealogyNode[];
};
export const genealogyNode: z.ZodType<GenealogyNode> = z.object({
  uuid: z.string(),
  username: z.string(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  package: z.string().nullable(),
  package_id: z.number(),
  active: z.boolean(),
  left_count: z.number(),
  right_count: z.number(),
  downlines: z.number(),
  photo_path: z.string().nullable(),
  leg,
  level: z.number(),
  get children() {
    return z.array(genealogyNode);
  },
});

export { GENEALOGY_DEFAULT_DEPTH, GENEALOGY_MAX_DEPTH };
export const genealogyQuery = z.object({
  depth: z.coerce
    .number()
    .int()
    .catch(GENEALOGY_DEFAULT_DEPTH)
    .default(GENEALOGY_DEFAULT_DEPTH)
    .transform((depth) => Math.min(Math.max(depth, 1), GENEALOGY_MAX_DEPTH)),
});

export const pageQuery = z.object({ page: pageNumber });

/** GET /users?type&page (admin): the members list tabs of seed 001 §2.10. */
export const memberListType = z.enum(['all', 'active', 'inactive', 'stockist']);
export type MemberListType = z.infer<typeof memberListType>;
export const memberListQuery = z.object({
  page: pageNumber,
  type: memberListType.catch('all').default('all'),
});
/** GET /users/search?search&page (admin): first name, last name, full name, username, e-mail or package name. */
export const memberSearchQuery = z.object({
  page: pageNumber,
  search: z.string().trim().max(100).optional().default(''),
});
export const memberListPage = paged(memberListRow);

export const genealogyMessages = {
  upline: 'Upline details',
  noUpline: 'This member has no upline',
  directDownlines: 'Direct downlines',
  noDirectDownlines: 'There are no direct downlines',
  directDownlineCount: 'Direct downline count',
  downlines: 'Downlines',
  noDownlines: 'There are no downlines',
  genealogy: 'Network structure',
  totalUsers: 'Total users',
  totalActiveUsers: 'Total active users',
  activeUsers: 'Active users',
  users: 'Users',
  noUsers: 'There are no users',
} as const;
