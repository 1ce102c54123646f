import { type CodeMailDeps, authMailJobs } from './auth/code-mails';

/**
 * Every handler of the mail worker's named jobs (`MailOutbox.request`), by job name, as
 * consumers.ts lists every consumer. A capability that must decide off the request path whether
 * to mail (so the answer's time tells nothing) adds its handlers here (docs/mail-outbox.md).
 */
export function mailJobs(deps: CodeMailDeps): Record<string, (data: unknown) => Promise<void>> {
  return { ...authMailJobs(deps) };
}
