import type { z } from 'zod';
import type { packageCreateBody, packageUpdateBody, stockistPackageCreateBody, stockistPackageUpdateBody } from '../contracts/catalogue';
import { nairaToKobo } from '../core/money';

/**
 * From a request body in naira to the catalogue entry's fields in kobo, once per kind, for both the
 * seeds' paths (`/packages/create`, ...) and the back office's resources (`/admin/packages`, ...).
 * Updates leave out what the body leaves out.
 */
const optionalKobo = (naira: number | undefined) => (naira === undefined ? undefined : nairaToKobo(naira));

export const packageFields = (body: z.infer<typeof packageCreateBody>) => ({
  name: body.name,
  point_value: body.point_value,
  registration_value_kobo: nairaToKobo(body.registration_value),
  pickup_amount_kobo: nairaToKobo(body.pickup_amount),
  matching_bonus_cap_kobo: nairaToKobo(body.matching_bonus_cap),
});

export const packageChanges = (body: z.infer<typeof packageUpdateBody>) => ({
  name: body.name,
  point_value: body.point_value,
  registration_value_kobo: optionalKobo(body.registration_value),
  pickup_amount_kobo: optionalKobo(body.pickup_amount),
  matching_bonus_cap_kobo: optionalKobo(body.matching_bonus_cap),
});

export const stockistPackageFields = (body: z.infer<typeof stockistPackageCreateBody>) => ({
  name: body.name,
  registration_value_kobo: nairaToKobo(body.registration_value),
  sales_bonus_percentage: body.sales_bonus_percentage,
  pickup_amount_kobo: nairaToKobo(body.pickup_amount),
  point_value: body.point_value,
  value: body.value,
});

export const stockistPackageChanges = (body: z.infer<typeof stockistPackageUpdateBody>) => ({
  name: body.name,
  registration_value_kobo: optionalKobo(body.registration_value),
  sales_bonus_percentage: body.sales_bonus_percentage,
  pickup_amount_kobo: optionalKobo(body.pickup_amount),
  point_value: body.point_value,
  value: body.value,
});

/** A new product: enabled from the start, with its stored image path or none. */
export const productFields = (body: { name: string; description: string; worth: number; points: number }, image: string | null) => ({
  name: body.name,
  description: body.description,
  image,
  worth_kobo: nairaToKobo(body.worth),
  points: body.points,
  is_active: true,
});
