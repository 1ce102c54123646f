import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import nodemailer, { type Transporter } from 'nodemailer';
import { extractCode, startMailCapture, type CapturedMail, type MailCapture } from './mail-capture.js';

describe('mail capture', () => {
  let capture: MailCapture;
  let transport: Transporter;

  beforeAll(async () => {
    capture = await startMailCapture(); // ephemeral ports
    transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: capture.smtpPort,
      secure: false,
      ignoreTLS: true,
      auth: { user: 'portal', pass: 'anything' },
    });
  });

  afterAll(async () => {
    transport?.close();
    await capture?.close();
  });

  beforeEach(() => capture.clear());

  it('captures a confirmation mail and exposes it through waitFor and the JSON API', async () => {
    const code = String(100000 + Math.floor(Math.random() * 900000));
    const to = 'Member.One@example.test';
    const info = await transport.sendMail({
      from: '"Herbal Portal" <no-reply@portal.test>',
      to,
      subject: 'Confirm your e-mail ₦',
      text: `Your confirmation code is ${code}. It expires in 15 minutes.`,
      html: `<p>Your confirmation code is <b>${code}</b>.</p>`,
    });
    expect(info.accepted).toEqual([to]);

    const mail = await capture.waitFor((m) => m.to.includes(to), 5000);
    expect(mail.subject).toBe('Confirm your e-mail ₦');
    expect(mail.to).toEqual([to]);
    expect(mail.from).toContain('no-reply@portal.test');
    expect(mail.text).toMatch(/\b\d{6}\b/);
    expect(/\b(\d{6})\b/.exec(mail.text)?.[1]).toBe(code);
    expect(extractCode(mail)).toBe(code);
    expect(mail.html).toContain(`<b>${code}</b>`);
    expect(Number.isNaN(Date.parse(mail.receivedAt))).toBe(false);

    // JSON API, filtered by recipient (case-insensitive)
    const res = await fetch(`${capture.httpUrl}/api/messages?to=${encodeURIComponent(to.toLowerCase())}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const list = (await res.json()) as CapturedMail[];
    expect(list).toHaveLength(1);
    expect(list[0]?.subject).toBe('Confirm your e-mail ₦');
    expect(list[0]?.to).toContain(to);
    expect(list[0]?.text).toMatch(new RegExp(`\\b${code}\\b`));

    // The HTML pages render
    const page = await fetch(`${capture.httpUrl}/`).then((r) => r.text());
    expect(page).toContain('Confirm your e-mail ₦');
    const detail = await fetch(`${capture.httpUrl}/messages/${list[0]!.id}`);
    expect(detail.status).toBe(200);
    expect(await detail.text()).toContain('sandbox=""');
  });

  it('waits for a mail that has not arrived yet, lists newest first, filters and clears', async () => {
    const pending = capture.waitFor((m) => m.subject === 'second', 5000);
    await transport.sendMail({ from: 'a@portal.test', to: 'x@example.test', subject: 'first', text: 'one' });
    await transport.sendMail({ from: 'a@portal.test', to: ['y@example.test', 'z@example.test'], subject: 'second', text: 'two' });
    expect((await pending).to).toEqual(['y@example.test', 'z@example.test']);

    expect(capture.messages().map((m) => m.subject)).toEqual(['second', 'first']);
    const all = (await fetch(`${capture.httpUrl}/api/messages`).then((r) => r.json())) as CapturedMail[];
    expect(all.map((m) => m.subject)).toEqual(['second', 'first']);
    const onlyZ = (await fetch(`${capture.httpUrl}/api/messages?to=z@example.test`).then((r) => r.json())) as CapturedMail[];
    expect(onlyZ.map((m) => m.subject)).toEqual(['second']);

    const del = await fetch(`${capture.httpUrl}/api/messages`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(capture.messages()).toEqual([]);
  });

  it('rejects waitFor on timeout with a helpful message', async () => {
    await expect(capture.waitFor((m) => m.subject === 'never', 200)).rejects.toThrow(/No matching mail within 200 ms/);
  });

  it('keeps at most maxMessages', async () => {
    const small = await startMailCapture({ maxMessages: 3 });
    const t = nodemailer.createTransport({ host: '127.0.0.1', port: small.smtpPort, secure: false, ignoreTLS: true });
    try {
      for (let i = 1; i <= 5; i++) await t.sendMail({ from: 'a@portal.test', to: 'b@example.test', subject: `m${i}`, text: 'x' });
      expect(small.messages().map((m) => m.subject)).toEqual(['m5', 'm4', 'm3']);
    } finally {
      t.close();
      await small.close();
    }
  });
});
