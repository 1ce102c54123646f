import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { pngOfSize, tinyPng } from '../../test/multipart';
import { demoLogins } from '../seed/demo-company';

/**
 * The catalogue's back-office resources (/api/admin/packages, products, company-banks,
 * stockist-packages) through the real app: the ra-data-simple-rest contract, who may read and
 * write, readable 422s shaped for react-admin's forms, and every write recorded as an event.
 */

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

const q = (params: Record<string, unknown>) =>
  `?${Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(JSON.stringify(value))}`)
    .join('&')}`;

async function list(resource: string, params: Record<string, unknown> = {}, token = admin) {
  const response = await t.app.inject({ method: 'GET', url: `/api/admin/${resource}${q(params)}`, headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, body: response.json() as any, range: response.headers['content-range'] as string | undefined };
}

async function lastEvent(streamId: string) {
  return t.runtime.db.selectFrom('events').select(['type', 'data', 'metadata']).where('stream_id', '=', streamId).orderBy('stream_position', 'desc').executeTakeFirstOrThrow();
}

/** A call whose body is a bare record (the admin resources answer records, not envelopes). */
async function call(...args: Parameters<ReturnType<typeof httpHelpers>['call']>) {
  const response = await h.call(...args);
  return { ...response, body: response.body as any };
}

const byAdmin = () => ({ actor: { type: 'admin', id: adminId } });
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

describe('access', () => {
  it.each(['packages', 'products', 'company-banks', 'stockist-packages'])('%s: members are refused, finance staff read but cannot write', async (resource) => {
    expect((await list(resource, {}, member)).status).toBe(403);
    expect((await call('GET', `/api/admin/${resource}`)).status).toBe(401);
    const read = await list(resource, {}, finance);
    expect(read.status).toBe(200);
    expect(read.range).toMatch(new RegExp(`^${resource} `));
    const written = await call('POST', `/api/admin/${resource}`, { token: finance, body: { name: 'Nope' } });
    expect(written).toMatchObject({ status: 403, body: { message: 'Finance staff may read but not change this.' } });
    expect((await call('PUT', `/api/admin/${resource}/1`, { token: finance, body: { name: 'Nope' } })).status).toBe(403);
  });

  it('finance staff cannot delete a bank', async () => {
    expect((await call('DELETE', '/api/admin/company-banks/1', { token: finance })).status).toBe(403);
  });
});

describe('packages', () => {
  it('lists with sort, range, q, money filters and getMany; reads one', async () => {
    const page = await list('packages', { sort: ['registration_value', 'DESC'], range: [0, 2], filter: {} });
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(3);
    expect(page.range).toBe('packages 0-2/6');
    const values = page.body.map((p: { registration_value: number }) => p.registration_value);
    expect(values).toEqual([...values].sort((a: number, b: number) => b - a));
    expect(Object.keys(page.body[0]).sort()).toEqual(['id', 'matching_bonus_cap', 'name', 'pickup_amount', 'point_value', 'registration_value']);

    const second = await list('packages', { sort: ['id', 'ASC'], range: [3, 5] });
    expect(second.range).toBe('packages 3-5/6');
    expect(second.body.map((p: { id: number }) => p.id)).toEqual([4, 5, 6]);

    const one = await call('GET', '/api/admin/packages/2', { token: admin });
    expect(one.status).toBe(200);
    const named = await list('packages', { filter: { q: one.body.name.slice(0, 3).toLowerCase() } });
    expect(named.body.map((p: { id: number }) => p.id)).toContain(2);
    const cheap = await list('packages', { filter: { registration_value_lte: one.body.registration_value } });
    expect(cheap.body.every((p: { registration_value: number }) => p.registration_value <= one.body.registration_value)).toBe(true);

    const many = await list('packages', { filter: { id: [1, 3] } });
    expect(many.body.map((p: { id: number }) => p.id)).toEqual([1, 3]);
    expect((await call('GET', '/api/admin/packages/999', { token: admin })).status).toBe(404);
  });

  it('creates and updates through the catalogue commands, answering the record with its id', async () => {
    const created = await call('POST', '/api/admin/packages', { token: admin, body: { name: 'Emerald', point_value: 800, registration_value: 1_120_000 } });
    expect(created).toMatchObject({ status: 200, body: { name: 'Emerald', point_value: 800, registration_value: 1_120_000, pickup_amount: 0, matching_bonus_cap: 0 } });
    const id = created.body.id as number;
    expect(await lastEvent(`package-${id}`)).toMatchObject({ type: 'PackageDefined', data: { package_id: id, registration_value_kobo: 112_000_000 }, metadata: byAdmin() });

    // react-admin sends the whole record back, id included.
    const updated = await call('PUT', `/api/admin/packages/${id}`, { token: admin, body: { ...created.body, registration_value: 1_250_000.5 } });
    expect(updated).toMatchObject({ status: 200, body: { id, registration_value: 1_250_000.5 } });
    expect(await lastEvent(`package-${id}`)).toMatchObject({
      type: 'PackageUpdated',
      data: { package_id: id, changes: { registration_value_kobo: 125_000_050 }, previous: { registration_value_kobo: 112_000_000 } },
      metadata: byAdmin(),
    });
    expect((await call('GET', '/api/packages/all')).body.data.find((p: { id: number }) => p.id === id).registration_value).toBe(1_250_000.5);
  });

  it('answers bad input with 422, the message under its field for the form and as the toast', async () => {
    const bad = await call('PUT', '/api/admin/packages/1', { token: admin, body: { registration_value: -5 } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('The registration value must be at least ₦1.');
    expect(bad.body.errors).toEqual({ registration_value: 'The registration value must be at least ₦1.', root: { serverError: 'The registration value must be at least ₦1.' } });
    const missing = await call('POST', '/api/admin/packages', { token: admin, body: { point_value: 1, registration_value: 1 } });
    expect(missing).toMatchObject({ status: 422, body: { message: 'The name field is required.', errors: { name: 'The name field is required.' } } });
    expect((await list('packages', { sort: ['password', 'ASC'] })).body).toMatchObject({ message: 'Cannot sort by password.' });
    expect((await call('PUT', '/api/admin/packages/999', { token: admin, body: { name: 'Ghost' } })).status).toBe(404);
  });
});

describe('products', () => {
  let productId: number;

  it('creates a product with an image sent as a data URL, stored and served', async () => {
    const created = await call('POST', '/api/admin/products', {
      token: admin,
      body: { name: 'Moringa Tea', worth: 4_500, description: 'Dried leaves', image: dataUrl(tinyPng()) },
    });
    expect(created).toMatchObject({ status: 200, body: { name: 'Moringa Tea', worth: 4_500, description: 'Dried leaves', is_active: true, points: 1 } });
    productId = created.body.id;
    expect(created.body.image).toMatch(/^storage\/products\/.+\.png$/);
    expect((await t.app.inject({ method: 'GET', url: `/${created.body.image}` })).statusCode).toBe(200);
    expect(await lastEvent(`product-${productId}`)).toMatchObject({ type: 'ProductDefined', data: { product_id: productId, worth_kobo: 450_000, is_active: true }, metadata: byAdmin() });

    const plain = await call('POST', '/api/admin/products', { token: admin, body: { name: 'Bitter Kola', worth: 1_000 } });
    expect(plain).toMatchObject({ status: 200, body: { image: null, description: '' } });
  });

  it('refuses an image over 500 kB or not an image, with the seed message under image', async () => {
    const big = await call('POST', '/api/admin/products', { token: admin, body: { name: 'Big', worth: 1, image: dataUrl(pngOfSize(500_001)) } });
    expect(big).toMatchObject({ status: 422, body: { message: 'Image size should not exceed 500kB', errors: { image: 'Image size should not exceed 500kB' } } });
    const text = await call('POST', '/api/admin/products', { token: admin, body: { name: 'Text', worth: 1, image: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}` } });
    expect(text).toMatchObject({ status: 422, body: { errors: { image: 'The file must be a JPEG, PNG or WebP image.' } } });
    const noPrice = await call('POST', '/api/admin/products', { token: admin, body: { name: 'Free' } });
    expect(noPrice).toMatchObject({ status: 422, body: { errors: { worth: 'The price field is required.' } } });
  });

  it('updates: the stored path sent back keeps the image, is_active disables it (ProductUpdated)', async () => {
    const record = (await call('GET', `/api/admin/products/${productId}`, { token: admin })).body;
    const updated = await call('PUT', `/api/admin/products/${productId}`, { token: admin, body: { ...record, worth: 5_000 } });
    expect(updated).toMatchObject({ status: 200, body: { id: productId, worth: 5_000, image: record.image } });
    expect(await lastEvent(`product-${productId}`)).toMatchObject({ type: 'ProductUpdated', data: { changes: { worth_kobo: 500_000 }, previous: { worth_kobo: 450_000 } } });

    const disabled = await call('PUT', `/api/admin/products/${productId}`, { token: admin, body: { ...updated.body, is_active: false } });
    expect(disabled.body.is_active).toBe(false);
    expect(await lastEvent(`product-${productId}`)).toMatchObject({ type: 'ProductUpdated', data: { changes: { is_active: false }, previous: { is_active: true } }, metadata: byAdmin() });

    const replaced = await call('PUT', `/api/admin/products/${productId}`, { token: admin, body: { image: dataUrl(tinyPng()) } });
    expect(replaced.body.image).not.toBe(record.image);
    expect((await call('PUT', `/api/admin/products/999`, { token: admin, body: { name: 'Ghost' } })).status).toBe(404);
  });

  it('lists with the status filter, q, sort and getMany', async () => {
    const disabled = await list('products', { filter: { is_active: false } });
    expect(disabled.body.map((p: { id: number }) => p.id)).toContain(productId);
    expect(disabled.body.every((p: { is_active: boolean }) => !p.is_active)).toBe(true);
    const enabled = await list('products', { filter: { is_active: true } });
    expect(enabled.body.every((p: { is_active: boolean }) => p.is_active)).toBe(true);
    expect((await list('products', { filter: { q: 'moringa tea' } })).body.map((p: { id: number }) => p.id)).toEqual([productId]);
    const sorted = await list('products', { sort: ['worth', 'DESC'], range: [0, 2] });
    const worths = sorted.body.map((p: { worth: number }) => p.worth);
    expect(worths).toEqual([...worths].sort((a: number, b: number) => b - a));
    expect(sorted.range).toMatch(/^products 0-2\/\d+$/);
    expect((await list('products', { filter: { id: [productId] } })).body).toHaveLength(1);
    const empty = await list('products', { filter: { q: 'nothing like this' } });
    expect(empty).toMatchObject({ status: 200, body: [], range: 'products */0' });
  });
});

describe('company banks', () => {
  it('creates, lists, reads, updates and deletes, each recorded', async () => {
    const before = (await list('company-banks')).body.length as number;
    const created = await call('POST', '/api/admin/company-banks', { token: admin, body: { bank_name: 'Access Bank', bank_account_name: 'Herbal Life Network Ltd', bank_account_number: '0123456789' } });
    expect(created).toMatchObject({ status: 200, body: { bank_name: 'Access Bank', bank_account_number: '0123456789' } });
    const id = created.body.id as number;
    expect(await lastEvent(`company-bank-${id}`)).toMatchObject({ type: 'CompanyBankDefined', metadata: byAdmin() });

    const all = await list('company-banks', { sort: ['bank_name', 'DESC'], range: [0, 9] });
    const names = all.body.map((b: { bank_name: string }) => b.bank_name);
    expect(names).toEqual([...names].sort().reverse());
    expect(all.range).toBe(`company-banks 0-${before}/${before + 1}`);
    expect((await list('company-banks', { filter: { q: 'access' } })).body.map((b: { id: number }) => b.id)).toEqual([id]);
    expect((await list('company-banks', { filter: { id: [id] } })).body.map((b: { id: number }) => b.id)).toEqual([id]);
    expect((await call('GET', `/api/admin/company-banks/${id}`, { token: finance })).body).toMatchObject({ id, bank_name: 'Access Bank' });

    const updated = await call('PUT', `/api/admin/company-banks/${id}`, { token: admin, body: { ...created.body, bank_account_name: 'HLN Limited' } });
    expect(updated).toMatchObject({ status: 200, body: { id, bank_account_name: 'HLN Limited' } });
    expect(await lastEvent(`company-bank-${id}`)).toMatchObject({ type: 'CompanyBankUpdated', data: { changes: { bank_account_name: 'HLN Limited' } } });

    const bad = await call('PUT', `/api/admin/company-banks/${id}`, { token: admin, body: { bank_account_number: '12345' } });
    expect(bad).toMatchObject({ status: 422, body: { message: 'The account number must be 10 digits.', errors: { bank_account_number: 'The account number must be 10 digits.' } } });

    const deleted = await call('DELETE', `/api/admin/company-banks/${id}`, { token: admin, headers: { 'content-type': 'text/plain' } });
    expect(deleted).toMatchObject({ status: 200, body: { id, bank_name: 'Access Bank' } });
    expect(await lastEvent(`company-bank-${id}`)).toMatchObject({ type: 'CompanyBankRemoved', data: { bank_id: id }, metadata: byAdmin() });
    expect((await call('GET', `/api/admin/company-banks/${id}`, { token: admin })).status).toBe(404);
    expect((await call('DELETE', `/api/admin/company-banks/${id}`, { token: admin })).status).toBe(404);
    expect((await list('company-banks')).range).toBe(`company-banks 0-${before - 1}/${before}`);
  });
});

describe('stockist packages', () => {
  it('creates, lists, reads and updates, each recorded', async () => {
    const created = await call('POST', '/api/admin/stockist-packages', {
      token: admin,
      body: { name: 'Mega Stockist', registration_value: 500_000, sales_bonus_percentage: 10, pickup_amount: 450_000, value: 2 },
    });
    expect(created).toMatchObject({ status: 200, body: { name: 'Mega Stockist', registration_value: 500_000, point_value: 1, value: 2 } });
    const id = created.body.id as number;
    expect(await lastEvent(`stockist-package-${id}`)).toMatchObject({ type: 'StockistPackageDefined', data: { registration_value_kobo: 50_000_000 }, metadata: byAdmin() });

    // Listed by level by default (then id): the new level-2 package sits with the seeded level 2.
    const all = await list('stockist-packages');
    const levels = all.body.map((p: { value: number }) => p.value);
    expect(levels).toEqual([...levels].sort((a: number, b: number) => a - b));
    expect(all.body.map((p: { id: number }) => p.id)).toContain(id);
    const dear = await list('stockist-packages', { filter: { registration_value_gte: 500_000 } });
    expect(dear.body.every((p: { registration_value: number }) => p.registration_value >= 500_000)).toBe(true);
    expect(dear.body.map((p: { id: number }) => p.id)).toContain(id);
    expect((await list('stockist-packages', { filter: { q: 'mega' } })).body.map((p: { id: number }) => p.id)).toEqual([id]);
    expect((await list('stockist-packages', { filter: { id: [id] } })).body).toHaveLength(1);
    expect((await call('GET', `/api/admin/stockist-packages/${id}`, { token: admin })).body).toMatchObject({ id, sales_bonus_percentage: 10 });

    const updated = await call('PUT', `/api/admin/stockist-packages/${id}`, { token: admin, body: { ...created.body, sales_bonus_percentage: 12.5 } });
    expect(updated).toMatchObject({ status: 200, body: { id, sales_bonus_percentage: 12.5 } });
    expect(await lastEvent(`stockist-package-${id}`)).toMatchObject({ type: 'StockistPackageUpdated', data: { changes: { sales_bonus_percentage: 12.5 } }, metadata: byAdmin() });

    const bad = await call('PUT', `/api/admin/stockist-packages/${id}`, { token: admin, body: { sales_bonus_percentage: 150 } });
    expect(bad).toMatchObject({ status: 422, body: { errors: { sales_bonus_percentage: 'The rebate percentage must be between 0 and 100.' } } });
  });
});
