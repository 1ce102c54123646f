import { type Mail, escapeHtml } from '../notifications/mailer';

const signature = 'Herbal Life Network';

/** The referral link (seed 000 §2.5): `ref` prefills the placement, `placer` the sponsor. */
export function referralLink(publicUrl: string, input: { placement: string; sponsor: string | null }): string {
  const query = new URLSearchParams({ ref: input.placement, ...(input.sponsor ? { placer: input.sponsor } : {}) });
  return `${publicUrl.replace(/\/+$/, '')}/register?${query}`;
}

export function invitationMail(to: string, inviterName: string, link: string): Mail {
  const subject = `${inviterName} invites you to join ${signature}`;
  const text = `Hello,\n\n${inviterName} invites you to join ${signature}. Register with this link:\n\n${link}\n\nIf you did not expect this invitation, you can ignore this e-mail.\n\n${signature}`;
  const html = `<p>Hello,</p><p>${escapeHtml(inviterName)} invites you to join ${signature}. Register with this link:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>If you did not expect this invitation, you can ignore this e-mail.</p><p>${signature}</p>`;
  return { to, subject, text, html };
}

/** A message an admin writes to one member: their subject, their words. */
export function memberMessageMail(to: string, memberName: string, subject: string, body: string): Mail {
  const text = `Hello ${memberName},\n\n${body}\n\n${signature}`;
  const paragraphs = body.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('');
  const html = `<p>Hello ${escapeHtml(memberName)},</p>${paragraphs}<p>${signature}</p>`;
  return { to, subject, text, html };
}
