import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../core/config';

/** Outgoing e-mail over SMTP (nodemailer). Development and tests point it at infra's capture server. */
export type Mail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send: (mail: Mail) => Promise<void>; close: () => void };

export function createMailer(config: Config, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    ignoreTLS: !config.SMTP_SECURE && config.SMTP_HOST === '127.0.0.1',
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } : undefined,
    connectionTimeout: 5_000,
  });
  return {
    async send(mail) {
      try {
        await transport.sendMail({ from: config.MAIL_FROM, ...mail });
      } catch (error) {
        // A mail server outage must not fail the command that was already recorded; the person can ask again.
        logger.error({ err: error, to: mail.to, subject: mail.subject }, 'sending mail failed');
      }
    },
    close: () => transport.close(),
  };
}

const purposeText = {
  email_confirmation: { subject: 'Confirm your e-mail address', lead: 'Use this code to confirm your e-mail address' },
  two_factor: { subject: 'Your sign-in code', lead: 'Use this code to finish signing in' },
  password_reset: { subject: 'Reset your password', lead: 'Use this code to reset your password' },
  password_change: { subject: 'Confirm your password change', lead: 'Use this code to change your password' },
} as const;

export function codeMail(to: string, name: string, purpose: keyof typeof purposeText, code: string): Mail {
  const { subject, lead } = purposeText[purpose];
  const text = `Hello ${name},\n\n${lead}: ${code}\n\nThe code is valid for 15 minutes. If you did not ask for it, you can ignore this e-mail.\n\nHerbal Life Network`;
  const html = `<p>Hello ${escapeHtml(name)},</p><p>${lead}:</p><p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p><p>The code is valid for 15 minutes. If you did not ask for it, you can ignore this e-mail.</p><p>Herbal Life Network</p>`;
  return { to, subject: `${subject}: ${code}`, text, html };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
