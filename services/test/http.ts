import { expect } from 'vitest';
import { demoLogins } from '../src/seed/demo-company';
import { type TestApp, codeMailedTo } from './app';
import { multipartBody, tinyPng } from './multipart';

export type Json = { success: boolean; message: string; data: any; errors?: Record<string, string[]> };
export type CallOptions = { body?: unknown; token?: string; headers?: Record<string, string> };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The HTTP helpers every integration test uses: calls through the real app, members registered,
 * confirmed and signed in, admin tokens. Registrations without a placement go to the oldest member
 * with a free leg (breadth-first from the root), skipping parents a test placed its own children
 * under, so tests never compete for the same legs.
 */
export function httpHelpers(t: TestApp) {
  const reservedParents = new Set<string>();
  let counter = 0;

  async function openPlacement(): Promise<string> {
    const row = await t.runtime.db
      .selectFrom('members as m')
      .select('m.username')
      .where((eb) => eb(eb.selectFrom('members as c').select((c) => c.fn.countAll<number>().as('n')).whereRef('c.placement_parent_id', '=', 'm.id'), '<', 2))
      .where('m.username', 'not in', [...reservedParents, '-'])
      .orderBy('m.created_at')
      .limit(1)
      .executeTakeFirstOrThrow();
    return row.username;
  }

  async function call(method: Method, url: string, options: CallOptions = {}) {
    const body = options.body as Record<string, unknown> | undefined;
    if (url === '/api/auth/register' && body && body.referrer === '') options = { ...options, body: { ...body, referrer: await openPlacement() } };
    const response = await t.app.inject({
      method,
      url,
      payload: options.body as object | undefined,
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    });
    let json: Json;
    try {
      json = response.json() as Json;
    } catch {
      json = { success: false, message: response.body, data: null };
    }
    return { status: response.statusCode, body: json, headers: response.headers };
  }

  /** A multipart request (uploads): text fields plus files given as bytes. */
  async function upload(method: 'POST' | 'PUT', url: string, options: { fields?: Record<string, string | number>; files?: Record<string, { bytes: Buffer; filename: string; type?: string }>; token?: string }) {
    const files = Object.fromEntries(Object.entries(options.files ?? {}).map(([name, file]) => [name, { content: file.bytes, filename: file.filename, type: file.type }]));
    const { body, headers } = await multipartBody(options.fields ?? {}, files);
    const response = await t.app.inject({ method, url, payload: body, headers: { ...headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) } });
    return { status: response.statusCode, body: response.json() as Json };
  }

  function newMember(overrides: Record<string, unknown> = {}) {
    counter++;
    const tag = `${counter}_${process.pid % 1000}${Date.now() % 100000}`;
    return {
      first_name: 'Chidi',
      last_name: `Okafor${counter}`,
      username: `chidi${tag}`,
      password: 'correct horse battery',
      email: `chidi${tag}@example.test`,
      phone: '08031234567',
      referrer: '',
      placer: '',
      package_id: 2,
      ...overrides,
    };
  }

  /** Registers, confirms the e-mail with the mailed code, signs in: returns the token and user. */
  async function registeredMember(overrides: Record<string, unknown> = {}, options: { asParent?: boolean } = {}) {
    const member = newMember(overrides);
    if (options.asParent) reservedParents.add(member.username);
    const registered = await call('POST', '/api/auth/register', { body: member });
    expect(registered.status, registered.body.message).toBe(200);
    const code = await codeMailedTo(t.mail, member.email);
    expect((await call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code } })).status).toBe(200);
    const login = await call('POST', '/api/auth/login', { body: { username: member.username, password: member.password } });
    expect(login.status).toBe(200);
    return { ...member, id: registered.body.data.uuid as string, token: login.body.data.access_token as string };
  }

  async function adminToken(who: 'admin' | 'finance' = 'admin') {
    const login = await call('POST', '/api/auth/admin-login', { body: { email: demoLogins[who].email, password: demoLogins[who].password } });
    expect(login.status).toBe(200);
    return login.body.data.access_token as string;
  }

  async function rootToken() {
    const login = await call('POST', '/api/auth/login', { body: { username: demoLogins.root.username, password: demoLogins.root.password } });
    expect(login.status).toBe(200);
    return { id: login.body.data.uuid as string, token: login.body.data.access_token as string };
  }

  let approver: string | null = null;
  /**
   * Pays a member's registration (or an upgrade to `upgradeTo`) the way members pay by bank
   * transfer: a receipt uploaded, then approved by an admin. Returns the payment id.
   */
  async function payByReceipt(member: { token: string; package_id?: unknown }, options: { upgradeTo?: number } = {}): Promise<string> {
    const paymentId = await uploadReceipt(member, options);
    await decideReceipt(paymentId, 'approve');
    return paymentId;
  }

  /** A receipt uploaded for the registration (or an upgrade), awaiting an admin's decision. Returns the payment id. */
  async function uploadReceipt(member: { token: string; package_id?: unknown }, options: { upgradeTo?: number } = {}): Promise<string> {
    const fields = { txn_source: 'package_payment', is_upgrade: options.upgradeTo ? 1 : 0, meta_data: Number(options.upgradeTo ?? member.package_id ?? 0), payment_type: 'pop' };
    const uploaded = await upload('POST', '/api/payments/initiate', { token: member.token, fields, files: { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } } });
    expect(uploaded.status, uploaded.body.message).toBe(200);
    return uploaded.body.data.payment_id as string;
  }

  /** An admin approves or declines an uploaded receipt. */
  async function decideReceipt(paymentId: string, decision: 'approve' | 'disapprove', reason = 'The transfer did not arrive.'): Promise<void> {
    approver ??= await adminToken();
    const decided = await call('PATCH', `/api/payments/package-payments/${paymentId}/${decision}`, { token: approver, ...(decision === 'disapprove' ? { body: { reason } } : {}) });
    expect(decided.status, decided.body.message).toBe(200);
  }

  /** A registered member whose registration an admin approved from an uploaded receipt. */
  async function activeMember(overrides: Record<string, unknown> = {}, options: { asParent?: boolean } = {}) {
    const member = await registeredMember(overrides, options);
    await payByReceipt(member);
    return member;
  }

  return { call, upload, payByReceipt, uploadReceipt, decideReceipt, activeMember, newMember, registeredMember, adminToken, rootToken, openPlacement, reservedParents };
}
