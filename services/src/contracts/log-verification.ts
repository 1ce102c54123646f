import { z } from 'zod';

/**
 * The tamper check as the back office sees it (docs/tamper-check.md): runs of the hash-chain
 * verification of the whole event log, their progress and the first broken link they found.
 */
export const brokenLink = z.object({
  stream_id: z.string(),
  stream_position: z.number(),
  /** content: the event was edited; link: its prev_hash is not its predecessor's hash; gap: a position is missing; truncated: a verified head is gone. */
  kind: z.enum(['content', 'link', 'gap', 'truncated']),
  problem: z.string(),
  expected: z.string(),
  found: z.string(),
});
export type BrokenLinkRecord = z.infer<typeof brokenLink>;

export const verificationStatus = z.enum(['queued', 'running', 'intact', 'broken', 'failed']);

export const logVerification = z.object({
  id: z.string(),
  trigger: z.enum(['admin', 'schedule']),
  requested_by: z.string().nullable(),
  status: verificationStatus,
  events_total: z.number(),
  events_checked: z.number(),
  /** 0–100, for the progress bar. */
  percent: z.number(),
  streams_checked: z.number(),
  problems_count: z.number(),
  first_problem: brokenLink.nullable(),
  problems: z.array(brokenLink),
  /** sha256 of every stream's head as the run saw it: keep it with the books, outside the database. */
  heads_digest: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type LogVerification = z.infer<typeof logVerification>;

/** GET /api/admin/log-verifications/latest: the newest run (maybe still running) and the newest finished one. */
export const latestLogVerifications = z.object({ latest: logVerification.nullable(), last_finished: logVerification.nullable() });
export type LatestLogVerifications = z.infer<typeof latestLogVerifications>;
