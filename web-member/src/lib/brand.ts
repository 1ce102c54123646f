/** Product naming in one place, so the company's name can be set without touching screens. */
export const BRAND = {
  name: 'Herbal Life Network',
  tagline: 'Natural wellness, shared.',
  supportNote: 'Need help? Contact your upline or the support desk.',
} as const;
