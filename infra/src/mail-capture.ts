/**
 * In-process mail catcher for development and tests.
 *
 * - SMTP (smtp-server): no TLS, auth optional, any credentials accepted.
 *   Point the app at it with host/port, `secure: false` (and no `requireTLS`).
 * - HTTP (node:http): a small web UI at `/` and a JSON API:
 *     GET    /                      list page (newest first)
 *     GET    /messages/:id          one message (text + html in a sandboxed iframe)
 *     GET    /api/messages          JSON array, newest first; `?to=addr` filters by recipient
 *     GET    /api/messages/:id      JSON for one message
 *     DELETE /api/messages          clears everything
 *
 * Messages live in memory only; at most `maxMessages` (1000) are kept, oldest dropped first.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export interface CapturedMail {
  id: string;
  /** From header as written, e.g. `"Portal" <no-reply@example.test>` (falls back to the envelope sender). */
  from: string;
  /** Envelope recipients (To, Cc and Bcc alike), as given by the sender. */
  to: string[];
  subject: string;
  /** Plain-text body ('' when the mail had none and no HTML to derive it from). */
  text: string;
  /** HTML body, or null for text-only mail. */
  html: string | null;
  /** ISO 8601 timestamp. */
  receivedAt: string;
}

export type MailPredicate = (mail: CapturedMail) => boolean;

export interface MailCapture {
  smtpPort: number;
  httpPort: number;
  /** e.g. http://127.0.0.1:1080 */
  httpUrl: string;
  /** Captured mails, newest first (a copy). */
  messages(): CapturedMail[];
  /**
   * Resolves with the newest already-captured mail matching `predicate`, or else the next one to
   * arrive. Rejects after `timeoutMs` (30 s by default: a loaded CI machine has taken more than 10) (or when the capture is closed). Call `clear()` first when
   * you need a mail sent after a certain point.
   */
  waitFor(predicate: MailPredicate, timeoutMs?: number): Promise<CapturedMail>;
  clear(): void;
  close(): Promise<void>;
}

export interface MailCaptureOptions {
  host?: string;
  /** 0 = pick a free port. */
  smtpPort?: number;
  /** 0 = pick a free port. */
  httpPort?: number;
  /** Maximum number of mails kept in memory (default 1000). */
  maxMessages?: number;
  /** Called for every captured mail (e.g. to log it to the console). */
  onMessage?: (mail: CapturedMail) => void;
}

const MAX_SIZE_BYTES = 25 * 1024 * 1024;

export async function startMailCapture(options: MailCaptureOptions = {}): Promise<MailCapture> {
  const host = options.host ?? '127.0.0.1';
  const maxMessages = options.maxMessages ?? 1000;
  const store: CapturedMail[] = []; // oldest first
  let seq = 0;
  let closed = false;

  type Waiter = { predicate: MailPredicate; resolve: (m: CapturedMail) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };
  const waiters = new Set<Waiter>();

  function add(mail: CapturedMail): void {
    store.push(mail);
    if (store.length > maxMessages) store.splice(0, store.length - maxMessages);
    for (const w of [...waiters]) {
      let hit = false;
      try {
        hit = w.predicate(mail);
      } catch (err) {
        waiters.delete(w);
        clearTimeout(w.timer);
        w.reject(err instanceof Error ? err : new Error(String(err)));
        continue;
      }
      if (hit) {
        waiters.delete(w);
        clearTimeout(w.timer);
        w.resolve(mail);
      }
    }
    try {
      options.onMessage?.(mail);
    } catch {
      /* a logging callback must not break capture */
    }
  }

  const newestFirst = (): CapturedMail[] => store.slice().reverse();

  // ---------------------------------------------------------------- SMTP
  const smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    size: MAX_SIZE_BYTES,
    banner: 'portal mail capture',
    closeTimeout: 1000,
    onAuth(auth, _session, cb) {
      cb(null, { user: auth.username ?? 'anonymous' });
    },
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (parsed) => {
          if (stream.sizeExceeded) {
            cb(Object.assign(new Error('Message exceeds maximum size'), { responseCode: 552 }));
            return;
          }
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
          const mailFrom = session.envelope.mailFrom;
          seq += 1;
          add({
            id: String(seq),
            from: parsed.from?.text || (mailFrom ? mailFrom.address : ''),
            to: [...new Set(envelopeTo)],
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            receivedAt: new Date().toISOString(),
          });
          cb();
        },
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    },
  });
  smtp.on('error', () => {
    /* per-connection errors (client hang-ups etc.) are not fatal */
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    smtp.server.once('error', onError);
    smtp.listen(options.smtpPort ?? 0, host, () => {
      smtp.server.off('error', onError);
      resolve();
    });
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  // ---------------------------------------------------------------- HTTP
  const httpServer = http.createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      send(res, 500, 'text/plain; charset=utf-8', `Internal error: ${String(err)}`);
    }
  });

  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const isRead = method === 'GET' || method === 'HEAD';

    if (path === '/api/messages') {
      if (isRead) {
        const to = url.searchParams.get('to');
        const list = to ? newestFirst().filter((m) => matchesRecipient(m, to)) : newestFirst();
        return sendJson(res, 200, list);
      }
      if (method === 'DELETE') {
        store.length = 0;
        return sendJson(res, 200, { cleared: true });
      }
      return methodNotAllowed(res, 'GET, HEAD, DELETE');
    }

    const apiOne = /^\/api\/messages\/([^/]+)$/.exec(path);
    if (apiOne) {
      if (!isRead) return methodNotAllowed(res, 'GET, HEAD');
      const mail = store.find((m) => m.id === decodeURIComponent(apiOne[1] ?? ''));
      return mail ? sendJson(res, 200, mail) : sendJson(res, 404, { error: 'not found' });
    }

    if (path === '/') {
      if (!isRead) return methodNotAllowed(res, 'GET, HEAD');
      return sendHtml(res, 200, renderList(newestFirst(), smtpPort));
    }

    const page = /^\/messages\/([^/]+)$/.exec(path);
    if (page) {
      if (!isRead) return methodNotAllowed(res, 'GET, HEAD');
      const mail = store.find((m) => m.id === decodeURIComponent(page[1] ?? ''));
      if (!mail) return sendHtml(res, 404, renderPage('Not found', '<p>No such message (it may have been cleared). <a href="/">Back to the list</a></p>'));
      return sendHtml(res, 200, renderMessage(mail));
    }

    if (path === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    sendJson(res, 404, { error: 'not found' });
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => {
      smtp.close(() => reject(err));
    };
    httpServer.once('error', onError);
    httpServer.listen(options.httpPort ?? 0, host, () => {
      httpServer.off('error', onError);
      resolve();
    });
  });
  const httpPort = (httpServer.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  return {
    smtpPort,
    httpPort,
    httpUrl: `http://${urlHost}:${httpPort}`,
    messages: newestFirst,
    waitFor(predicate, timeoutMs = 30_000) {
      if (closed) return Promise.reject(new Error('mail capture is closed'));
      for (let i = store.length - 1; i >= 0; i--) {
        const m = store[i]!;
        if (predicate(m)) return Promise.resolve(m);
      }
      return new Promise<CapturedMail>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            const seen = newestFirst()
              .slice(0, 10)
              .map((m) => `  - to ${m.to.join(', ')}: ${JSON.stringify(m.subject)}`)
              .join('\n');
            reject(
              new Error(
                `No matching mail within ${timeoutMs} ms (SMTP port ${smtpPort}; ${store.length} captured${seen ? `, newest:\n${seen}` : ''})`,
              ),
            );
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    clear() {
      store.length = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const w of waiters) {
        clearTimeout(w.timer);
        w.reject(new Error('mail capture closed'));
      }
      waiters.clear();
      httpServer.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => httpServer.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
}

/** Case-insensitive match of an address against the envelope recipients. */
function matchesRecipient(mail: CapturedMail, addr: string): boolean {
  const want = addr.trim().toLowerCase();
  return mail.to.some((t) => t.toLowerCase() === want);
}

/**
 * The first standalone 6-digit number in the subject or text (the portal's confirmation codes are
 * 6 digits), or null. Digits that are part of longer numbers, amounts (12,500.00) or identifiers
 * (PO-202401-7) are ignored.
 */
export function extractCode(mail: Pick<CapturedMail, 'subject' | 'text'>): string | null {
  const m = /(?<![\w.,\-#/])\d{6}(?![\w\-/]|[.,]\d)/.exec(`${mail.subject}\n${mail.text}`);
  return m ? m[0] : null;
}

// ------------------------------------------------------------------ HTTP helpers
function send(res: http.ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function sendHtml(res: http.ServerResponse, status: number, body: string): void {
  send(res, status, 'text/html; charset=utf-8', body, {
    // Scripts only from this page's inline code; mail HTML is rendered in a sandboxed iframe without scripts.
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src * data:; connect-src 'self'; frame-src 'self' about:; base-uri 'none'; form-action 'none'",
    'Referrer-Policy': 'no-referrer',
  });
}

function methodNotAllowed(res: http.ServerResponse, allow: string): void {
  send(res, 405, 'application/json; charset=utf-8', JSON.stringify({ error: 'method not allowed' }), { Allow: allow });
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function fmtTime(iso: string): string {
  return `<time datetime="${esc(iso)}">${esc(iso.replace('T', ' ').slice(0, 19))} UTC</time>`;
}

const STYLE = `
:root { color-scheme: light; --fg:#1d2330; --muted:#667085; --line:#e4e7ec; --bg:#f7f8fa; --accent:#1f6f43; }
* { box-sizing: border-box; }
body { margin:0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
header { display:flex; align-items:center; gap:16px; padding:14px 24px; background:#fff; border-bottom:1px solid var(--line); }
header h1 { font-size:17px; margin:0; }
header .meta { color:var(--muted); font-size:13px; }
header .spacer { flex:1; }
main { padding:20px 24px; max-width:1200px; }
a { color:#175cd3; text-decoration:none; } a:hover { text-decoration:underline; }
table { width:100%; border-collapse:collapse; background:#fff; border:1px solid var(--line); border-radius:8px; overflow:hidden; }
th, td { text-align:left; padding:9px 12px; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-size:12px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); background:#fafbfc; }
tr:last-child td { border-bottom:0; }
tbody tr:hover { background:#f5f8ff; }
td.subject a { font-weight:600; }
td.time, td.code { white-space:nowrap; }
.addr { color:var(--muted); font-size:12px; }
.code b { font: 600 15px/1 ui-monospace, SFMono-Regular, Menlo, monospace; color:var(--accent); background:#ecfdf3; padding:3px 7px; border-radius:5px; letter-spacing:.08em; }
.preview { color:var(--muted); font-size:13px; margin-top:2px; max-width:520px; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
.empty { padding:40px; text-align:center; color:var(--muted); background:#fff; border:1px dashed var(--line); border-radius:8px; }
button { font:inherit; padding:6px 12px; border:1px solid #d0d5dd; background:#fff; border-radius:6px; cursor:pointer; }
button:hover { background:#f2f4f7; }
dl { display:grid; grid-template-columns:max-content 1fr; gap:6px 16px; margin:0 0 18px; background:#fff; padding:14px 16px; border:1px solid var(--line); border-radius:8px; }
dt { color:var(--muted); } dd { margin:0; }
h2 { font-size:15px; margin:22px 0 8px; }
pre { white-space:pre-wrap; word-break:break-word; background:#fff; border:1px solid var(--line); border-radius:8px; padding:14px 16px; margin:0; font:13px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; }
iframe { width:100%; height:480px; border:1px solid var(--line); border-radius:8px; background:#fff; }
`;

function renderPage(title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>${body}
<script>
document.querySelectorAll('time[datetime]').forEach(function (t) { t.textContent = new Date(t.getAttribute('datetime')).toLocaleString(); });
${script}
</script></body></html>`;
}

function renderFrom(from: string): string {
  const m = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  if (!m || !m[1]) return esc(from);
  return `${esc(m[1])}<div class="addr">${esc(m[2] ?? '')}</div>`;
}

function renderList(mails: CapturedMail[], smtpPort: number): string {
  const rows = mails
    .map((m) => {
      const code = extractCode(m);
      const preview = m.text.replace(/\s+/g, ' ').trim().slice(0, 160);
      return `<tr>
<td class="time">${fmtTime(m.receivedAt)}</td>
<td class="from">${renderFrom(m.from)}</td>
<td>${m.to.map(esc).join('<br>')}</td>
<td class="subject"><a href="/messages/${encodeURIComponent(m.id)}">${esc(m.subject || '(no subject)')}</a><div class="preview">${esc(preview)}</div></td>
<td class="code">${code ? `<b>${esc(code)}</b>` : ''}</td>
</tr>`;
    })
    .join('\n');
  const body = `<header><h1>Mail capture</h1><span class="meta">SMTP on port ${smtpPort} · ${mails.length} message${mails.length === 1 ? '' : 's'} · newest first</span>
<span class="spacer"></span><button id="clear" type="button">Clear all</button></header>
<main>${
    mails.length
      ? `<table><thead><tr><th>Received</th><th>From</th><th>To</th><th>Subject</th><th>Code</th></tr></thead><tbody>${rows}</tbody></table>`
      : `<div class="empty">No mail yet. Send to SMTP port ${smtpPort}; this page refreshes by itself.</div>`
  }</main>`;
  // Reload when the set of messages changes (polls the JSON API every 2 s).
  const script = `
var seen = ${JSON.stringify(mails.map((m) => m.id).join(','))};
setInterval(function () {
  fetch('/api/messages').then(function (r) { return r.json(); }).then(function (list) {
    if (list.map(function (m) { return m.id; }).join(',') !== seen) location.reload();
  }).catch(function () {});
}, 2000);
document.getElementById('clear').addEventListener('click', function () {
  fetch('/api/messages', { method: 'DELETE' }).then(function () { location.reload(); });
});`;
  return renderPage(`Mail capture (${mails.length})`, body, script);
}

function renderMessage(m: CapturedMail): string {
  const code = extractCode(m);
  const body = `<header><a href="/">← All messages</a><span class="spacer"></span><span class="meta">#${esc(m.id)}</span></header>
<main>
<dl>
<dt>Subject</dt><dd><strong>${esc(m.subject || '(no subject)')}</strong></dd>
<dt>From</dt><dd>${esc(m.from)}</dd>
<dt>To</dt><dd>${m.to.map(esc).join(', ')}</dd>
<dt>Received</dt><dd>${fmtTime(m.receivedAt)}</dd>
${code ? `<dt>Code</dt><dd class="code"><b>${esc(code)}</b></dd>` : ''}
</dl>
${m.html !== null ? `<h2>HTML</h2><iframe sandbox="" referrerpolicy="no-referrer" title="HTML body" srcdoc="${esc(m.html)}"></iframe>` : ''}
<h2>Text</h2>
<pre>${esc(m.text || '(no text part)')}</pre>
</main>`;
  return renderPage(m.subject || 'Message', body);
}
