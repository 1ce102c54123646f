import { z } from 'zod';

/** Every portal answer has this envelope (API.md §1). */
export const envelope = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ success: z.boolean(), message: z.string(), data });

/** Error answers: `errors` only on validation failures (422). */
export const errorBody = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
