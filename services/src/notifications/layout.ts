import { escapeHtml } from './mailer';

/**
 * The one layout of every member mail (docs/notifications.md): a heading, a few short paragraphs,
 * the figures as label/value rows, and one button to the page where the member acts on it, with
 * the same words as a plain-text part. Plain template literals rather than a mail framework (mjml,
 * react-email): one single-column layout does not need a compiler, and every value passes through
 * `escapeHtml` here, so a template cannot forget to escape.
 *
 * Table layout and inline styles because mail clients (Outlook, Gmail) ignore most CSS.
 */
export type MailContent = {
  subject: string;
  /** The greeting's name (the member's first name). */
  name: string;
  heading: string;
  /** Plain text, one paragraph each (escaped here). */
  paragraphs: readonly string[];
  /** Label and value rows: amounts, references, the reason given. */
  facts?: ReadonlyArray<readonly [label: string, value: string]>;
  action: { label: string; url: string };
};

export type RenderedMail = { subject: string; text: string; html: string };

export const COMPANY = 'Herbal Life Network';

const brand = '#1f7a3a';

export function renderMail(content: MailContent): RenderedMail {
  const facts = content.facts ?? [];
  const text = [
    `Hello ${content.name},`,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(facts.length > 0 ? [...facts.map(([label, value]) => `${label}: ${value}`), ''] : []),
    `${content.action.label}: ${content.action.url}`,
    '',
    COMPANY,
  ].join('\n');

  const factRows = facts
    .map(
      ([label, value]) =>
        `<tr><td width="1%" style="padding:6px 16px 6px 0;color:#5b6770;font-size:14px;vertical-align:top;white-space:nowrap">${escapeHtml(label)}</td><td style="padding:6px 0;color:#1d2328;font-size:14px;font-weight:600">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f5f4;font-family:Helvetica,Arial,sans-serif;color:#1d2328">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f5f4;padding:24px 12px">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:${brand};padding:16px 24px;color:#ffffff;font-size:18px;font-weight:700">${COMPANY}</td></tr>
<tr><td style="padding:24px">
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;color:#1d2328">${escapeHtml(content.heading)}</h1>
<p style="margin:0 0 12px;font-size:15px;line-height:1.5">Hello ${escapeHtml(content.name)},</p>
${content.paragraphs.map((p) => `<p style="margin:0 0 12px;font-size:15px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${factRows ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 16px;border-top:1px solid #e3e8e5;width:100%">${factRows}</table>` : ''}
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:20px 0 8px"><tr><td style="background:${brand};border-radius:6px">
<a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;color:#ffffff;font-size:15px;font-weight:600;text-decoration:none">${escapeHtml(content.action.label)}</a>
</td></tr></table>
<p style="margin:16px 0 0;font-size:12px;line-height:1.5;color:#5b6770">Or open this link: <a href="${escapeHtml(content.action.url)}" style="color:${brand};word-break:break-all">${escapeHtml(content.action.url)}</a></p>
</td></tr>
<tr><td style="padding:16px 24px;background:#f8faf9;color:#5b6770;font-size:12px;line-height:1.5">You receive this mail because of a decision about your ${COMPANY} account.</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
  return { subject: content.subject, text, html };
}

/** Naira as the member app shows money (seed 000 §9, web-member/src/lib/money.ts): 2,500,000 kobo → "₦25,000.00". */
const nairaFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'NGN', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function naira(kobo: number): string {
  return nairaFormat.format(kobo / 100);
}

/** A page of the member app (web-member/src/App.tsx routes) on the public address. */
export function memberPage(publicUrl: string, path: `/${string}`): string {
  return `${publicUrl.replace(/\/+$/, '')}${path}`;
}
