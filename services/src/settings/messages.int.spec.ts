import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';

/** A message to members needs a subject and a text, or neither (issue 11: an empty subject was saved as a success). */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
});
afterAll(async () => t.close());

describe('message settings', () => {
  it('refuses a general message without a subject, or a subject without a text, at the field', async () => {
    const admin = await h.adminToken();
    const noSubject = await h.call('PUT', '/api/settings/update', { token: admin, body: { general_message_subject: '  ', general_message: 'Meeting on Friday' } });
    expect(noSubject).toMatchObject({ status: 422, body: { message: 'The general message needs a subject.', errors: { general_message_subject: ['The general message needs a subject.'] } } });
    const noText = await h.call('PUT', '/api/settings/update', { token: admin, body: { home_page_message_subject: 'Closed on Monday', home_page_message: '' } });
    expect(noText).toMatchObject({ status: 422, body: { errors: { home_page_message: ['The front page message needs a text.'] } } });
    const both = await h.call('PUT', '/api/settings/update', { token: admin, body: { general_message_subject: 'Meeting', general_message: 'Friday at 10' } });
    expect(both.status, both.body.message).toBe(200);
    const cleared = await h.call('PUT', '/api/settings/update', { token: admin, body: { general_message_subject: '', general_message: '' } });
    expect(cleared.status).toBe(200);
  });
});
