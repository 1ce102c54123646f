/**
 * The stand-in's card checkout pages: plain HTML, no script, fits in an iframe or a tab. The forms
 * post to paths relative to /checkout/<access_code>, so the stand-in also works behind a prefix.
 */

export const TEST_CARD = { number: '4084 0840 8408 4081', expiry: '12/30', cvv: '408' };

/** ₦25,000 / ₦1,234.50: en-US grouping, kobo only when there are some. */
export function formatNaira(kobo: number): string {
  const fraction = kobo % 100 === 0 ? 0 : 2;
  return `₦${(kobo / 100).toLocaleString('en-US', { minimumFractionDigits: fraction, maximumFractionDigits: fraction })}`;
}

export function checkoutPage(input: { accessCode: string; email: string; amountKobo: number; reference: string; error?: string }): string {
  const code = encodeURIComponent(input.accessCode);
  const amount = formatNaira(input.amountKobo);
  return page(
    `Pay ${amount}`,
    `<header>
  <div class="brand"><span class="logo" aria-hidden="true"></span>Paystack <span class="badge">Test mode</span></div>
  <div class="who"><div class="email">${esc(input.email)}</div><div class="amount">Pay <strong>${esc(amount)}</strong></div></div>
</header>
<form method="post" action="${code}/pay">
  <p class="lead">Enter your card details to pay</p>
  ${input.error ? `<p class="error" role="alert">${esc(input.error)}</p>` : ''}
  <label>Card number
    <input name="card_number" inputmode="numeric" autocomplete="off" value="${TEST_CARD.number}" required>
  </label>
  <div class="row">
    <label>Expiry<input name="expiry" placeholder="MM/YY" autocomplete="off" value="${TEST_CARD.expiry}" required></label>
    <label>CVV<input name="cvv" inputmode="numeric" autocomplete="off" value="${TEST_CARD.cvv}" required></label>
  </div>
  <button class="pay" type="submit">Pay ${esc(amount)}</button>
  <button class="cancel" type="submit" formaction="${code}/cancel" formnovalidate>Cancel</button>
  <p class="note">Local test gateway: no money moves. Reference <code>${esc(input.reference)}</code>
    · <button class="link" type="submit" formaction="${code}/decline" formnovalidate>Simulate a declined card</button></p>
</form>`,
  );
}

export function resultPage(input: { title: string; message: string; tone: 'success' | 'neutral' }): string {
  return page(
    input.title,
    `<div class="result ${input.tone}">
  <div class="mark" aria-hidden="true">${input.tone === 'success' ? '✓' : '✕'}</div>
  <h1>${esc(input.title)}</h1>
  <p>${esc(input.message)}</p>
</div>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main class="card">${body}</main></body></html>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const STYLE = `
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 16px;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #101828; background: #f2f4f7; }
.card { width: 100%; max-width: 420px; background: #fff; border-radius: 14px; box-shadow: 0 10px 30px rgba(16,24,40,.12); overflow: hidden; }
header { display: flex; justify-content: space-between; align-items: center; gap: 12px; padding: 18px 22px; border-bottom: 1px solid #eaecf0; }
.brand { display: flex; align-items: center; gap: 8px; font-weight: 700; color: #011b33; }
.logo { width: 22px; height: 22px; border-radius: 5px; background: linear-gradient(135deg, #09a5db, #3bb75e); }
.badge { font-size: 11px; font-weight: 600; color: #b54708; background: #fffaeb; border: 1px solid #fedf89; border-radius: 999px; padding: 1px 8px; }
.who { text-align: right; font-size: 13px; color: #475467; min-width: 0; }
.email { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.amount strong { color: #3bb75e; font-size: 15px; }
form { padding: 20px 22px 18px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 14px; }
.lead { margin: 0; text-align: center; color: #475467; }
label { min-width: 0; display: grid; gap: 6px; font-size: 12px; font-weight: 600; letter-spacing: .04em; text-transform: uppercase; color: #667085; }
input { width: 100%; min-width: 0; font: 16px/1.2 ui-monospace, SFMono-Regular, Menlo, monospace; letter-spacing: .06em; padding: 12px 14px; border: 1px solid #d0d5dd; border-radius: 8px; color: #101828; }
input:focus { outline: 2px solid #09a5db33; border-color: #09a5db; }
.row { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; }
button { font: inherit; cursor: pointer; border-radius: 8px; }
.pay { padding: 13px; border: 0; background: #3bb75e; color: #fff; font-weight: 700; font-size: 16px; }
.pay:hover { background: #2fa350; }
.cancel { padding: 11px; border: 1px solid #d0d5dd; background: #fff; color: #344054; font-weight: 600; }
.cancel:hover { background: #f9fafb; }
.error { margin: 0; padding: 10px 12px; border-radius: 8px; background: #fef3f2; color: #b42318; border: 1px solid #fecdca; }
.note { margin: 0; font-size: 12px; color: #667085; text-align: center; }
.note code { font-size: 11px; overflow-wrap: anywhere; }
.link { border: 0; padding: 0; background: none; color: #175cd3; font-size: 12px; text-decoration: underline; }
.result { padding: 40px 28px; text-align: center; }
.result h1 { font-size: 20px; margin: 14px 0 6px; }
.result p { margin: 0; color: #475467; }
.mark { width: 56px; height: 56px; margin: 0 auto; border-radius: 50%; display: grid; place-items: center; font-size: 28px; color: #fff; background: #98a2b3; }
.success .mark { background: #3bb75e; }
`;
