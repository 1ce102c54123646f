import { z } from 'zod';

/** A registration package as the portal API shows it: money in naira. */
export const registrationPackage = z.object({
  id: z.number(),
  name: z.string(),
  point_value: z.number(),
  registration_value: z.number(),
  pickup_amount: z.number(),
  matching_bonus_cap: z.number(),
});
export type RegistrationPackage = z.infer<typeof registrationPackage>;
