import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { changePasswordBody, changePasswordLinkBody } from '@portal/services/contracts/auth';

/** The security page's two forms' validation, loaded apart from the page (lib/lazy-resolver.ts). */
export type LinkInput = z.input<typeof changePasswordLinkBody>;
export type ChangeInput = z.input<typeof changePasswordBody>;

export const linkResolver = zodResolver(changePasswordLinkBody);
export const changeResolver = zodResolver(changePasswordBody);
