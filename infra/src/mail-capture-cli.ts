/**
 * Standalone mail capture: `npx tsx infra/src/mail-capture-cli.ts`
 * Env: MAIL_SMTP_PORT (default 1025), MAIL_HTTP_PORT (default 1080), MAIL_CAPTURE_HOST (default 127.0.0.1).
 */
import { extractCode, startMailCapture } from './mail-capture.js';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`${name} must be a port number (0-65535), got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
}

const host = process.env.MAIL_CAPTURE_HOST || '127.0.0.1';
const capture = await startMailCapture({
  host,
  smtpPort: port('MAIL_SMTP_PORT', 1025),
  httpPort: port('MAIL_HTTP_PORT', 1080),
  onMessage(m) {
    const code = extractCode(m);
    console.log(`[mail] ${m.receivedAt} to ${m.to.join(', ')}: ${JSON.stringify(m.subject)}${code ? ` (code ${code})` : ''}`);
  },
}).catch((err: NodeJS.ErrnoException) => {
  console.error(
    err.code === 'EADDRINUSE'
      ? `Port already in use (${err.message}). Set MAIL_SMTP_PORT / MAIL_HTTP_PORT to free ports.`
      : `Could not start mail capture: ${err.message}`,
  );
  process.exit(1);
});

console.log(`Mail capture running
  SMTP: smtp://${host}:${capture.smtpPort}  (no TLS, any or no auth; nodemailer: { host: '${host}', port: ${capture.smtpPort}, secure: false })
  Web:  ${capture.httpUrl}/
  API:  ${capture.httpUrl}/api/messages  (?to=address, DELETE to clear)
Ctrl-C to stop.`);

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void capture.close().then(() => process.exit(0));
  });
}
