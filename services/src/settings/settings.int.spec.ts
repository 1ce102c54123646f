import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { demoLogins } from '../seed/demo-company';
import { getSettings } from './projections';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
let member: string;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken('admin');
  finance = await h.adminToken('finance');
  member = (await h.registeredMember()).token;
  adminId = (await t.runtime.db.selectFrom('admins').select('id').where('email', '=', demoLogins.admin.email).executeTakeFirstOrThrow()).id;
});
afterAll(async () => t.close());

const call = (...args: Parameters<ReturnType<typeof httpHelpers>['call']>) => h.call(...args);
const update = (body: Record<string, unknown>, token = admin) => call('PUT', '/api/settings/update', { token, body });

async function lastEvent(streamId: string) {
  return t.runtime.db.selectFrom('events').select(['type', 'data', 'metadata', 'recorded_at']).where('stream_id', '=', streamId).orderBy('stream_position', 'desc').executeTakeFirstOrThrow();
}

describe('reading the settings', () => {
  it('gives a signed-in account every field of the record, money in naira', async () => {
    expect((await call('GET', '/api/settings/all')).status).toBe(401);
    const all = await call('GET', '/api/settings/all', { token: member });
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({
      id: 1,
      unit_point_value: 1_000,
      global_profit_value: 1_000_000,
      minimum_withdrawal: 2_000,
      maximum_withdrawal: 500_000,
      withdrawal_charge_type: 'percentage',
      charge: 1.5,
      withdrawal_charge_cap: 2_000,
      withdrawal_type: 'weekly',
      withdrawal_period: 6,
      equillibrum_bonus: 2,
      show_front_page_message: false,
    });
    expect(all.body.data).not.toHaveProperty('unit_point_value_kobo');
    expect(all.body.data).not.toHaveProperty('default_referral_code');
  });

  it('gives one setting under its own name; the front-page notice is public, the rest need an account', async () => {
    expect(await call('GET', '/api/settings/unit_point_value', { token: member })).toMatchObject({ status: 200, body: { data: { unit_point_value: 1_000 } } });
    expect((await call('GET', '/api/settings/unit_point_value')).status).toBe(401);
    expect(await call('GET', '/api/settings/home_page_message')).toMatchObject({ status: 200, body: { data: { home_page_message: expect.any(String) } } });
    expect(await call('GET', '/api/settings/no_such_setting', { token: member })).toMatchObject({ status: 404, body: { message: 'Setting not found.' } });
  });
});

describe('changing the settings', () => {
  it('takes naira at the API, keeps kobo inside, and records who changed what from what', async () => {
    const changed = await update({ unit_point_value: 1500 });
    expect(changed).toMatchObject({ status: 200, body: { message: 'Setting updated successfully', data: { unit_point_value: 1500 } } });
    expect((await call('GET', '/api/settings/unit_point_value', { token: member })).body.data.unit_point_value).toBe(1500);
    expect((await getSettings(t.runtime.db)).unit_point_value_kobo).toBe(150_000);
    const event = await lastEvent('settings');
    expect(event).toMatchObject({
      type: 'SettingsChanged',
      data: { changes: { unit_point_value_kobo: 150_000 }, previous: { unit_point_value_kobo: 100_000 } },
      metadata: { actor: { type: 'admin', id: adminId } },
    });
    expect(event.recorded_at).toBeInstanceOf(Date);
  });

  it('changes any subset of fields, leaving the others, and records nothing when nothing changes', async () => {
    const before = await call('GET', '/api/settings/all', { token: admin });
    const changed = await update({ matching_bonus_total_pv: '150', matching_bonus_percent: 12, repurchase_bonus_percentage: 8, matching_bonus_frequency: 14 });
    expect(changed.body.data).toMatchObject({ matching_bonus_total_pv: 150, matching_bonus_percent: 12, repurchase_bonus_percentage: 8, matching_bonus_frequency: 14 });
    expect(changed.body.data.company_phone).toBe(before.body.data.company_phone);
    const count = async () => (await t.runtime.db.selectFrom('events').select('stream_position').where('stream_id', '=', 'settings').orderBy('stream_position', 'desc').executeTakeFirstOrThrow()).stream_position;
    const position = await count();
    expect((await update({ matching_bonus_total_pv: 150 })).status).toBe(200);
    expect(await count()).toBe(position);
  });

  it('updates the company contact group and the award and stockist referral percentages', async () => {
    const changed = await update({ company_phone: '+234 809 111 2222', company_email: 'hello@herbal-portal.test', company_address: '5 Allen Avenue, Ikeja', award_winner_sponsor_bonus_percentage: 6, award_winner_dd_bonus_percentage: 3, stockist_referral_bonus_percentage: 4 });
    expect(changed).toMatchObject({ status: 200, body: { data: { company_email: 'hello@herbal-portal.test', award_winner_dd_bonus_percentage: 3 } } });
    expect(await update({ company_email: 'not-an-email' })).toMatchObject({ status: 422, body: { message: 'The company email must be a valid email address.' } });
  });

  it('sets the company default placement preference, which spillover then uses; refuses anything else at the field; finance cannot', async () => {
    expect((await call('GET', '/api/settings/all', { token: admin })).body.data.default_placement_preference).toBe('balanced');
    expect(await update({ default_placement_preference: 'weaker_leg' })).toMatchObject({ status: 200, body: { data: { default_placement_preference: 'weaker_leg' } } });
    expect((await getSettings(t.runtime.db)).default_placement_preference).toBe('weaker_leg');
    expect(await update({ default_placement_preference: 'sideways' })).toMatchObject({ status: 422, body: { message: 'Choose how new members are placed.', errors: { default_placement_preference: ['Choose how new members are placed.'] } } });
    expect((await update({ default_placement_preference: 'extreme_left' }, finance)).status).toBe(403);
    expect((await call('GET', '/api/settings/default_placement_preference', { token: member })).body.data).toEqual({ default_placement_preference: 'weaker_leg' });
    expect((await update({ default_placement_preference: 'balanced' })).status).toBe(200);
  });

  it("answers the front-page toggle with the seeds' own messages", async () => {
    expect(await update({ show_front_page_message: true })).toMatchObject({ status: 200, body: { message: 'The front page message is now shown', data: { show_front_page_message: true } } });
    expect(await update({ show_front_page_message: 0 })).toMatchObject({ status: 200, body: { message: 'The front page message is now hidden', data: { show_front_page_message: false } } });
    expect((await update({ show_front_page_message: true, home_page_message: 'Promo week!' })).body.message).toBe('Setting updated successfully');
  });

  it('shows charge as naira for the flat type and as a percent for the percentage type, keeping both', async () => {
    const flat = await update({ withdrawal_charge_type: 'flat', charge: 150 });
    expect(flat.body.data).toMatchObject({ withdrawal_charge_type: 'flat', charge: 150 });
    expect(await getSettings(t.runtime.db)).toMatchObject({ charge_kobo: 15_000, charge: 1.5 });
    expect((await update({ charge: 200 })).body.data.charge).toBe(200);
    const back = await update({ withdrawal_charge_type: 'percentage', withdrawal_charge_cap: 2500 });
    expect(back.body.data).toMatchObject({ withdrawal_charge_type: 'percentage', charge: 1.5, withdrawal_charge_cap: 2500 });
  });

  it('sets the payout schedule and clears it', async () => {
    expect((await update({ withdrawal_type: 'monthly', withdrawal_period: 25 })).body.data).toMatchObject({ withdrawal_type: 'monthly', withdrawal_period: 25 });
    expect((await update({ withdrawal_type: '' })).body.data).toMatchObject({ withdrawal_type: null, withdrawal_period: null });
    expect(await update({ withdrawal_type: 'weekly', withdrawal_period: 8 })).toMatchObject({
      status: 422,
      body: { message: 'For a weekly payout, the payout day must be from 1 (Sunday) to 7 (Saturday).', errors: { withdrawal_period: [expect.any(String)] } },
    });
    expect((await update({ withdrawal_type: 'weekly', withdrawal_period: 6 })).status).toBe(200);
  });

  it('answers each invalid field with its message (seed 002 §5)', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ unit_point_value: 'abc' }, 'unit point value is invalid'],
      [{ unit_point_value: 0 }, 'The unit point value must be at least ₦1.'],
      [{ minimum_withdrawal: 'x' }, 'minimum withdrawal is invalid'],
      [{ maximum_withdrawal: 'x' }, 'maximum withdrawal is invalid'],
      [{ charge: 'x' }, 'charge field is invalid'],
      [{ withdrawal_charge_cap: 'x' }, 'withdrawal charge cap field is invalid'],
      [{ welcome_bonus_percentage: 'x' }, 'please enter a valid number'],
      [{ loyalty_bonus_percentage: 101 }, 'The loyalty bonus percentage must be between 0 and 100.'],
      [{ global_profit_value: 'x' }, 'Please enter a valid number'],
      [{ profit_pool_percentage: 'x' }, 'Please enter a valid number'],
      [{ next_global_profit_share_month: 13 }, 'The global profit share month must be between 1 and 12.'],
      [{ next_global_profit_share_day: 0 }, 'The global profit share day must be between 1 and 31.'],
      [{ profit_pool_duration: 13 }, 'The profit pool duration must be between 1 and 12.'],
      [{ profit_pool_days_offset: 0 }, 'The profit pool days offset must be at least 1.'],
      [{ equillibrum_bonus: 0 }, 'The matching (equilibrium) bonus must be at least 1.'],
      [{ withdrawal_charge_type: 'daily' }, 'The withdrawal charge type must be percentage or flat.'],
      [{ withdrawal_type: 'yearly' }, 'The payout type must be weekly or monthly.'],
      [{ minimum_withdrawal: 900_000 }, 'The minimum withdrawal cannot be more than the maximum withdrawal.'],
      [{ global_profit_first_percentage: 50, global_profit_second_percentage: 60 }, 'The first and second global profit percentages cannot add up to more than 100.'],
      [{}, 'Please send at least one setting to change.'],
    ];
    for (const [body, message] of cases) {
      expect(await update(body), JSON.stringify(body)).toMatchObject({ status: 422, body: { message } });
    }
  });

  it('refuses a money setting with a fraction of a kobo or beyond ₦10 billion at its field, and keeps the value (issue 11)', async () => {
    const before = await getSettings(t.runtime.db);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ maximum_withdrawal: 500_000.005 }, 'maximum_withdrawal', 'The maximum withdrawal may have at most two decimals (whole kobo).'],
      [{ maximum_withdrawal: '1000.123' }, 'maximum_withdrawal', 'The maximum withdrawal may have at most two decimals (whole kobo).'],
      [{ minimum_withdrawal: 0.001 }, 'minimum_withdrawal', 'The minimum withdrawal may have at most two decimals (whole kobo).'],
      [{ withdrawal_charge_cap: 10.555 }, 'withdrawal_charge_cap', 'The withdrawal charge cap may have at most two decimals (whole kobo).'],
      [{ unit_point_value: 1000.5001 }, 'unit_point_value', 'The unit point value may have at most two decimals (whole kobo).'],
      [{ global_profit_value: 1e16 }, 'global_profit_value', 'The global profit amount is too large (at most ₦10,000,000,000).'],
      [{ withdrawal_charge_type: 'flat', charge: 100.001 }, 'charge', 'The flat charge may have at most two decimals (whole kobo).'],
    ];
    for (const [body, field, message] of cases) {
      expect(await update(body), JSON.stringify(body)).toMatchObject({ status: 422, body: { message, errors: { [field]: [message] } } });
    }
    expect(await getSettings(t.runtime.db)).toEqual(before);
    // With the flat type already in force, a charge sent alone is checked against it.
    expect((await update({ withdrawal_charge_type: 'flat', charge: 100 })).status).toBe(200);
    expect(await update({ charge: 99.999 })).toMatchObject({ status: 422, body: { message: 'The flat charge may have at most two decimals (whole kobo).', errors: { charge: [expect.any(String)] } } });
    // A percentage charge is a percent, not money: decimals are fine; two-decimal naira is fine.
    expect((await update({ withdrawal_charge_type: 'percentage', charge: 1.125 })).status).toBe(200);
    expect((await update({ maximum_withdrawal: 750_000.25 })).body.data.maximum_withdrawal).toBe(750_000.25);
    expect((await getSettings(t.runtime.db)).maximum_withdrawal_kobo).toBe(75_000_025);
    await update({ withdrawal_charge_type: 'percentage', charge: before.charge, maximum_withdrawal: before.maximum_withdrawal_kobo / 100 });
  });

  it('lets only admins who may write change settings', async () => {
    expect((await update({ unit_point_value: 1 }, finance)).status).toBe(403);
    expect((await update({ unit_point_value: 1 }, member)).status).toBe(403);
    expect((await call('PUT', '/api/settings/update', { body: { unit_point_value: 1 } })).status).toBe(401);
  });
});

describe('the bonus generation tables', () => {
  const tables = [
    { kind: 'referral', list: '/api/settings/referral-bonus', update: (id: number) => `/api/settings/update-referral-bonus/${id}`, row6: [10, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5] },
    { kind: 'upgrade', list: '/api/settings/upgrade-bonus', update: (id: number) => `/api/settings/upgrade-bonus/${id}/update`, row6: [8, 4, 2, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25] },
    { kind: 'unilevel', list: '/api/settings/unilevel-bonus', update: (id: number) => `/api/settings/unilevel-bonus/${id}/update`, row6: [5, 3, 2, 1, 1, 1, 0.5, 0.5, 0.5, 0.5] },
    { kind: 'stockist-upline', list: '/api/settings/stockist-upline-bonus', update: (id: number) => `/api/settings/stockist-upline-bonus/${id}`, row6: [3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25] },
  ];
  const generations = (row: Record<string, number>) => Array.from({ length: 10 }, (_, i) => row[`generation_${i + 1}_percentage`]);

  it.each(tables)('lists and updates the $kind table, recording the previous percentages', async ({ kind, list, update: updatePath, row6 }) => {
    const rows = await call('GET', list, { token: finance });
    expect(rows.status).toBe(200);
    expect(rows.body.data).toHaveLength(6);
    expect(rows.body.data[5]).toMatchObject({ id: 6, package_id: 6, name: 'Crown' });
    expect(generations(rows.body.data[5])).toEqual(row6);
    expect(generations(rows.body.data[0]).slice(3)).toEqual([0, 0, 0, 0, 0, 0, 0]);

    const updated = await call('PUT', updatePath(1), { token: admin, body: { generation_1_percentage: '7.5', generation_4_percentage: '', generation_5_percentage: 1 } });
    expect(updated).toMatchObject({ status: 200, body: { message: 'Setting updated successfully', data: { id: 1, name: 'Starter', generation_1_percentage: 7.5, generation_4_percentage: 0, generation_5_percentage: 1 } } });
    expect(await lastEvent(`bonus-table-${kind}-1`)).toMatchObject({
      type: 'BonusGenerationsChanged',
      data: { kind, package_id: 1, changes: { generation_1_percentage: 7.5, generation_5_percentage: 1 }, previous: { generation_1_percentage: row6[0], generation_5_percentage: 0 } },
      metadata: { actor: { type: 'admin', id: adminId } },
    });
    expect(generations((await call('GET', list, { token: admin })).body.data[0]).slice(0, 5)).toEqual([7.5, row6[1], row6[2], 0, 1]);
  });

  it("answers '{field} is not a valid number', bounds, unknown packages and non-writers", async () => {
    expect(await call('PUT', '/api/settings/update-referral-bonus/2', { token: admin, body: { generation_3_percentage: 'three' } })).toMatchObject({
      status: 422,
      body: { message: 'generation_3_percentage is not a valid number', errors: { generation_3_percentage: ['generation_3_percentage is not a valid number'] } },
    });
    expect(await call('PUT', '/api/settings/update-referral-bonus/2', { token: admin, body: { generation_2_percentage: 101 } })).toMatchObject({ status: 422, body: { message: 'generation_2_percentage must be between 0 and 100' } });
    expect(await call('PUT', '/api/settings/update-referral-bonus/2', { token: admin, body: { generation_1_percentage: 60, generation_2_percentage: 45 } })).toMatchObject({
      status: 422,
      body: { message: 'The ten generations together cannot be more than 100 percent.' },
    });
    expect((await call('PUT', '/api/settings/unilevel-bonus/99/update', { token: admin, body: { generation_1_percentage: 1 } })).status).toBe(404);
    expect((await call('PUT', '/api/settings/stockist-upline-bonus/2', { token: finance, body: { generation_1_percentage: 1 } })).status).toBe(403);
    expect((await call('GET', '/api/settings/upgrade-bonus', { token: member })).status).toBe(403);
  });

  it('answers "who changed the referral percentage, from what, to what, and when" from the event log', async () => {
    await call('PUT', '/api/settings/update-referral-bonus/3', { token: admin, body: { generation_1_percentage: 12 } });
    const filter = JSON.stringify({ type: 'BonusGenerationsChanged', stream_id: 'bonus-table-referral-3', actor_id: adminId });
    const response = await t.app.inject({ method: 'GET', url: `/api/admin/events?filter=${encodeURIComponent(filter)}&range=${encodeURIComponent('[0,9]')}`, headers: { authorization: `Bearer ${admin}` } });
    const [latest] = response.json() as Array<{ data: unknown; metadata: { actor: unknown }; recorded_at: string }>;
    expect(latest).toMatchObject({ data: { changes: { generation_1_percentage: 12 }, previous: { generation_1_percentage: 10 } }, metadata: { actor: { type: 'admin', id: adminId } } });
    expect(Date.parse(latest!.recorded_at)).not.toBeNaN();
  });
});
