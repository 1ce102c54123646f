import { z } from 'zod';

/**
 * Where a recruit goes when the named placement already has both legs (spillover,
 * docs/placement.md). The sponsor's preference, else the company default (settings).
 */
export const placementPreferences = ['balanced', 'extreme_left', 'extreme_right', 'weaker_leg'] as const;
export const placementPreference = z.enum(placementPreferences, { error: 'Choose how new members are placed.' });
export type PlacementPreference = z.infer<typeof placementPreference>;

export const placementPreferenceLabels: Record<PlacementPreference, string> = {
  balanced: 'First free place, level by level',
  extreme_left: 'Extreme left',
  extreme_right: 'Extreme right',
  weaker_leg: 'Weaker leg (lower volume)',
};

/** GET /api/auth/placement-preview?referrer=&placer= (the registration form's fields). */
export const placementPreviewQuery = z.object({
  referrer: z.string().trim().max(60).optional().default(''),
  placer: z.string().trim().max(60).optional().default(''),
});
export const placementPreview = z.object({
  /** The member the recruit will sit under, and on which leg. */
  placement: z.string(),
  leg: z.enum(['left', 'right']),
  sponsor: z.string(),
  /** The placement named (or the company's default) was full: the recruit spills below it. */
  spillover: z.boolean(),
  /** The named placement, when spillover moved the recruit. */
  requested_placement: z.string(),
  preference: placementPreference,
  /** "under chidi, left leg" and why. */
  explanation: z.string(),
});
export type PlacementPreview = z.infer<typeof placementPreview>;

/** GET/PUT /api/users/:id/placement-preference. */
export const placementPreferenceBody = z.object({ preference: placementPreference.nullable() });
export const placementPreferenceView = z.object({
  /** Null: the company default applies. */
  preference: placementPreference.nullable(),
  company_default: placementPreference,
  effective: placementPreference,
});
export type PlacementPreferenceView = z.infer<typeof placementPreferenceView>;

export const legWord = (leg: 'left' | 'right') => (leg === 'left' ? 'left leg' : 'right leg');
