import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

/** The dashboard's invite form's validation, loaded apart from the page (lib/lazy-resolver.ts). */
export const inviteForm = z.object({ email: z.string().trim().min(1, 'The email field is required.').pipe(z.email('The email must be a valid email address.')) });
export type InviteForm = z.infer<typeof inviteForm>;

export const inviteResolver = zodResolver(inviteForm);
