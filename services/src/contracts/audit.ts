import { z } from 'zod';

/**
 * The event log as the back office reads it (GET /api/admin/events, ra-data-simple-rest): one
 * record per event, `id` = its global position. metadata.actor names who did it.
 */
export const eventRecord = z.object({
  id: z.number(),
  stream_id: z.string(),
  type: z.string(),
  data: z.unknown(),
  metadata: z.unknown(),
  recorded_at: z.string(),
});
export type EventRecord = z.infer<typeof eventRecord>;
