import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';

/**
 * A field that is too long says so (the seeds' Laravel-like wording), never 'The address field is
 * required.' as it did for a 5,000-character address. Limits: names 100 characters, address 500,
 * message subject 200 (contracts/profile.ts, contracts/auth.ts).
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let member: Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  member = await h.registeredMember();
});
afterAll(async () => t?.close());

const long = (n: number) => 'a'.repeat(n);

describe('profile', () => {
  const profile = () => ({ first_name: member.first_name, last_name: member.last_name, phone: member.phone, gender: 'female', address: '12 Allen Avenue, Ikeja' });

  it('update-profile: too long address and names have their own message', async () => {
    const url = `/api/users/${member.id}/update-profile`;
    for (const [field, value, message] of [
      ['address', long(5_000), 'The address may not be greater than 500 characters.'],
      ['address', long(501), 'The address may not be greater than 500 characters.'],
      ['first_name', long(101), 'The first name may not be greater than 100 characters.'],
      ['last_name', long(5_000), 'The last name may not be greater than 100 characters.'],
      ['phone', long(300), 'The phone may not be greater than 255 characters.'],
      ['address', '   ', 'The address field is required.'],
    ] as const) {
      const answer = await h.upload('POST', url, { token: member.token, fields: { ...profile(), [field]: value } });
      expect(answer.status, `${field} ${value.length}`).toBe(422);
      expect(answer.body.message, `${field} ${value.length}`).toBe(message);
      expect(answer.body.errors?.[field], field).toEqual([message]);
    }
    const fine = await h.upload('POST', url, { token: member.token, fields: { ...profile(), address: long(500) } });
    expect(fine.status, fine.body.message).toBe(200);
  });

  it('create-profile and PUT /users/{id}/update say the same', async () => {
    const created = await h.upload('POST', '/api/users/create-profile', { token: member.token, fields: { address: long(5_000), gender: 'male', phone: member.phone } });
    expect(created).toMatchObject({ status: 422, body: { message: 'The address may not be greater than 500 characters.' } });
    const updated = await h.call('PUT', `/api/users/${member.id}/update`, { token: member.token, body: { first_name: long(101), last_name: 'Okafor', phone: member.phone } });
    expect(updated).toMatchObject({ status: 422, body: { message: 'The first name may not be greater than 100 characters.' } });
  });
});

describe('registration', () => {
  it('too long names say so', async () => {
    const answer = await h.call('POST', '/api/auth/register', { body: h.newMember({ first_name: long(101) }) });
    expect(answer).toMatchObject({ status: 422, body: { message: 'The first name may not be greater than 100 characters.' } });
    const last = await h.call('POST', '/api/auth/register', { body: h.newMember({ last_name: long(200) }) });
    expect(last).toMatchObject({ status: 422, body: { message: 'The last name may not be greater than 100 characters.' } });
  });
});
