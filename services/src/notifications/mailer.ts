import nodemailer from 'nodemailer';
import type { Config } from '../core/config';

/**
 * Outgoing e-mail. Capabilities hand mails to `Mailer.send` (or `enqueueMail` inside their
 * transaction): both write the mail outbox (outbox.ts), never the mail server, so no answer waits
 * for SMTP. The SMTP transport below is used only by the outbox's delivery job.
 */
export type Mail = { to: string; subject: string; text: string; html?: string; category?: string; key?: string; secret?: boolean };
export type Mailer = { send: (mail: Mail) => Promise<void>; close: () => void };

/** SMTP over nodemailer (development and tests: infra's capture server). Throws when the server does not take the mail. */
export function createSmtpTransport(config: Config): { send: (mail: Mail) => Promise<void>; close: () => void } {
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
      await transport.sendMail({ from: config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
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
  return { to, subject: `${subject}: ${code}`, text, html, category: 'code', secret: true };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
