import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MemberAppTest, desktop, fullShot, phone, signIn, startMemberApp, screenshotOnFailure } from './member-app';
import { codeMailedTo } from '../services/test/app';

/**
 * A recruit arriving through the link of a member whose two legs are taken is registered and
 * placed in her team (spillover, docs/placement.md), and the form says where before submitting.
 */
let app: MemberAppTest;
beforeAll(async () => {
  app = await startMemberApp();
});
afterAll(async () => app?.close());
afterEach(screenshotOnFailure(() => app));

describe('registration through a full referral link', () => {
  it('shows "under <member>, left leg" before submitting, registers, and places the recruit there', async () => {
    const { http } = app;
    const sponsor = await http.registeredMember({}, { asParent: true });
    const left = await http.registeredMember({ referrer: sponsor.username, placer: sponsor.username }, { asParent: true });
    await http.registeredMember({ referrer: sponsor.username, placer: sponsor.username }, { asParent: true });

    const page = await app.newPage(desktop);
    await page.goto(`${app.base}/register?ref=${sponsor.username}&placer=${sponsor.username}`);
    const preview = page.getByTestId('placement-preview');
    await expect.poll(() => preview.textContent()).toContain(`placed under ${left.username}, left leg`);
    expect(await preview.textContent()).toContain(`${sponsor.username} already has two direct placements`);

    const stamp = Date.now() % 1_000_000;
    const recruit = { username: `ngozi${stamp}`, email: `ngozi${stamp}@example.test`, password: 'green leaves 2026' };
    await page.locator('input[name=first_name]').fill('Ngozi');
    await page.locator('input[name=last_name]').fill('Obi');
    await page.locator('input[name=username]').fill(recruit.username);
    await page.locator('input[name=email]').fill(recruit.email);
    await page.locator('input[name=phone]').fill('08031234567');
    await page.locator('input[name=password]').fill(recruit.password);
    await page.getByTestId('package-select').click();
    await page.getByRole('option', { name: /Bronze/ }).click();
    await page.getByLabel('I accept the terms and conditions').check();
    await fullShot(page, 'register-spillover-desktop');
    await page.getByRole('button', { name: /^register$/i }).click();
    await page.waitForURL(/\/email-confirmation\?email=/);

    const row = await app.t.runtime.db
      .selectFrom('members as m')
      .innerJoin('members as p', 'p.id', 'm.placement_parent_id')
      .innerJoin('members as s', 's.id', 'm.sponsor_id')
      .select(['p.username as parent', 'm.placement_leg as leg', 's.username as sponsor'])
      .where('m.username', '=', recruit.username)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ parent: left.username, leg: 'left', sponsor: sponsor.username });
    expect(await codeMailedTo(app.t.mail, recruit.email)).toMatch(/^\d{6}$/);
  });

  it('names the field when a typed placement does not exist, on a phone', async () => {
    const page = await app.newPage(phone);
    await page.goto(`${app.base}/register?ref=nobody-of-that-name`);
    await expect.poll(() => page.getByText('The placement (referrer) does not exist.').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('placement-preview').count()).toBe(0);
    await page.locator('input[name=referrer]').fill('');
    await expect.poll(() => page.getByTestId('placement-preview').textContent()).toMatch(/You will be placed under|already has two direct placements/);
    await fullShot(page, 'register-preview-phone');
  });

  it("lets a member choose where her recruits spill on her profile", async () => {
    const member = await app.http.activeMember();
    const page = await app.newPage(desktop);
    await signIn(page, app.base, member, /\/dashboard/);
    await page.goto(`${app.base}/user/profile`);
    const card = page.getByTestId('placement-preference-card');
    await card.getByLabel('Place them at').click();
    await page.getByRole('option', { name: 'Extreme right' }).click();
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await app.t.runtime.db.selectFrom('members').select('placement_preference').where('id', '=', member.id).executeTakeFirstOrThrow()).placement_preference).toBe('extreme_right');
    await fullShot(page, 'profile-placement-preference-desktop');
  });
});
