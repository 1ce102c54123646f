import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';

/**
 * Nothing the company sells has a price below ₦1 (contracts/fields.ts MIN_PRICE_NAIRA): a ₦0
 * product was handed out of pick-up allowances for nothing, a ₦0 package would activate unpaid.
 * Refused on create and update, on the portal API (multipart) and the back office (JSON); products
 * and packages already at ₦0 cannot be ordered or paid for.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
});
afterAll(async () => t?.close());

const priceFloor = 'The price must be at least ₦1.';

describe('products', () => {
  it('refuses a price of 0 (or below ₦1) on create and update, portal API and back office alike', async () => {
    for (const worth of [0, '0', 0.5, '0.00']) {
      const created = await h.upload('POST', '/api/products/create', { token: admin, fields: { name: 'Free Tea', worth } });
      expect(created, String(worth)).toMatchObject({ status: 422, body: { message: priceFloor, errors: { worth: [priceFloor] } } });
      // The back office's answer names the field the way react-admin shows it at the input.
      const viaAdmin = await h.call('POST', '/api/admin/products', { token: admin, body: { name: 'Free Tea', worth } });
      expect(viaAdmin, String(worth)).toMatchObject({ status: 422, body: { message: priceFloor, errors: { worth: priceFloor } } });
    }
    expect((await h.upload('POST', '/api/products/1/update', { token: admin, fields: { worth: 0 } }))).toMatchObject({ status: 422, body: { message: priceFloor } });
    expect(await h.call('PUT', '/api/admin/products/1', { token: admin, body: { worth: 0 } })).toMatchObject({ status: 422, body: { message: priceFloor } });
    const unchanged = await t.runtime.db.selectFrom('products').select('worth').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(Number(unchanged.worth)).toBeGreaterThan(0);
    expect((await t.runtime.db.selectFrom('products').select('id').where('name', '=', 'Free Tea').execute())).toEqual([]);
  });

  it('still takes ₦1', async () => {
    const created = await h.call('POST', '/api/admin/products', { token: admin, body: { name: 'Sample sachet', worth: 1 } });
    expect(created.status, created.body.message).toBe(200);
    expect((created.body as unknown as { worth: number }).worth).toBe(1);
  });

  it('a product already at ₦0 is not offered to members, and ordering it is refused with a readable message', async () => {
    // As a product created before the floor would be: the read table says ₦0.
    await t.runtime.db.updateTable('products').set({ worth: 0 }).where('id', '=', 2).execute();
    const { name } = await t.runtime.db.selectFrom('products').select('name').where('id', '=', 2).executeTakeFirstOrThrow();
    const member = await h.activeMember();
    const active = await h.call('GET', '/api/products/active', { token: member.token });
    expect(active.body.data.map((p: { id: number }) => p.id)).not.toContain(2);
    const message = `${name} has no price yet, so it cannot be ordered; remove it from your cart.`;
    const pickup = await h.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: 2, qty: 1000 }] } });
    expect(pickup).toMatchObject({ status: 422, body: { message } });
    const claim = await h.call('POST', `/api/product-claims/${member.id}/create`, { token: member.token, body: { products: [{ id: 2, qty: 1 }] } });
    expect(claim).toMatchObject({ status: 422, body: { message } });
    // The one-time registration pick-up is still there: a priced product goes through.
    const priced = await h.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: 1, qty: 1 }] } });
    expect(priced.status, priced.body.message).toBe(200);
  });
});

describe('packages', () => {
  it('refuses a registration value of 0 for registration and stockist packages, on create and update', async () => {
    const floor = 'The registration value must be at least ₦1.';
    const pkg = { name: 'Free', point_value: 1, registration_value: 0, pickup_amount: 0, matching_bonus_cap: 0 };
    expect(await h.call('POST', '/api/admin/packages', { token: admin, body: pkg })).toMatchObject({ status: 422, body: { message: floor } });
    expect(await h.call('POST', '/api/packages/create', { token: admin, body: pkg })).toMatchObject({ status: 422, body: { message: floor } });
    expect(await h.call('PUT', '/api/admin/packages/1', { token: admin, body: { registration_value: 0 } })).toMatchObject({ status: 422, body: { message: floor } });
    expect(await h.call('PUT', '/api/packages/1/update', { token: admin, body: { registration_value: 0 } })).toMatchObject({ status: 422, body: { message: floor } });
    const stockist = { name: 'Free Stockist', registration_value: 0, sales_bonus_percentage: 5, pickup_amount: 0 };
    expect(await h.call('POST', '/api/admin/stockist-packages', { token: admin, body: stockist })).toMatchObject({ status: 422, body: { message: floor } });
    expect(await h.call('PUT', '/api/admin/stockist-packages/1', { token: admin, body: { registration_value: 0 } })).toMatchObject({ status: 422, body: { message: floor } });
    // A pick-up amount or matching cap of 0 is still the seeds' default.
    const fine = await h.call('POST', '/api/admin/packages', { token: admin, body: { ...pkg, name: 'Emerald', registration_value: 1_000_000 } });
    expect(fine.status, fine.body.message).toBe(200);
  });

  it('refuses a bill-payment service at ₦0', async () => {
    const provider = await h.call('POST', '/api/service-providers/create', { token: admin, body: { name: 'MTN', code: 'mtn' } });
    expect(provider.status, provider.body.message).toBe(200);
    const service = await h.call('POST', '/api/product-services/create', { token: admin, body: { service_provider_id: provider.body.data.id, service: 'airtime', name: 'Free airtime', amount: 0 } });
    expect(service).toMatchObject({ status: 422, body: { message: 'The amount must be at least ₦1.' } });
  });

  it('a package already at ₦0 cannot be paid for, so it never activates for nothing', async () => {
    const member = await h.registeredMember({ package_id: 3 });
    await t.runtime.db.updateTable('packages').set({ registration_value: 0 }).where('id', '=', 3).execute();
    const started = await h.call('POST', '/api/payments/initiate', { token: member.token, body: { txn_source: 'package_payment', payment_type: 'payment_gateway', is_upgrade: 0, meta_data: 3 } });
    expect(started).toMatchObject({ status: 422, body: { message: 'This package has no registration value yet, so it cannot be paid for. Please contact the company.' } });
  });
});
