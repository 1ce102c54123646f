import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { multipartBody, pngOfSize, tinyPng } from '../../test/multipart';
import { demoLogins } from '../seed/demo-company';

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

/** The newest event of a stream, as the log holds it. */
async function lastEvent(streamId: string) {
  return t.runtime.db.selectFrom('events').select(['type', 'data', 'metadata']).where('stream_id', '=', streamId).orderBy('stream_position', 'desc').executeTakeFirstOrThrow();
}

async function eventCount(streamId: string) {
  const row = await t.runtime.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('stream_id', '=', streamId).executeTakeFirstOrThrow();
  return Number(row.n);
}

const adminActor = () => ({ actor: { type: 'admin', id: adminId } });

async function multipart(method: 'POST' | 'PUT', url: string, token: string, fields: Record<string, string | number>, files: Parameters<typeof multipartBody>[1] = {}) {
  const { body, headers } = await multipartBody(fields, files);
  return call(method, url, { token, body, headers });
}

describe('registration packages', () => {
  it('creates a package (admin), shows it publicly in naira, and records who created it', async () => {
    const created = await call('POST', '/api/packages/create', { token: admin, body: { name: 'Emerald', point_value: 800, registration_value: 1_120_000 } });
    expect(created).toMatchObject({ status: 200, body: { message: 'Package created successfully', data: { name: 'Emerald', point_value: 800, registration_value: 1_120_000, pickup_amount: 0, matching_bonus_cap: 0 } } });
    const id = created.body.data.id as number;
    expect(id).toBe(7);
    expect((await call('GET', `/api/packages/${id}`)).body.data.name).toBe('Emerald');
    expect((await call('GET', '/api/packages/all')).body.data.map((p: { id: number }) => p.id)).toContain(id);
    expect(await lastEvent(`package-${id}`)).toMatchObject({ type: 'PackageDefined', data: { package_id: id, registration_value_kobo: 112_000_000 }, metadata: adminActor() });
  });

  it('updates only the fields sent, and the event names the admin and the previous value', async () => {
    const updated = await call('PUT', '/api/packages/2/update', { token: admin, body: { registration_value: 36_000, name: 'Bronze' } });
    expect(updated).toMatchObject({ status: 200, body: { message: 'Package updated successfully', data: { id: 2, name: 'Bronze', registration_value: 36_000, point_value: 25 } } });
    expect(await lastEvent('package-2')).toMatchObject({
      type: 'PackageUpdated',
      data: { package_id: 2, changes: { registration_value_kobo: 3_600_000 }, previous: { registration_value_kobo: 3_500_000 } },
      metadata: adminActor(),
    });
  });

  it('refuses finance staff and members, answers 404 for an unknown package and 422 for a bad field', async () => {
    expect((await call('POST', '/api/packages/create', { token: finance, body: { name: 'X', point_value: 1, registration_value: 1 } })).status).toBe(403);
    expect((await call('PUT', '/api/packages/1/update', { token: member, body: { name: 'X' } })).status).toBe(403);
    expect((await call('PUT', '/api/packages/99/update', { token: admin, body: { name: 'X' } })).status).toBe(404);
    expect(await call('POST', '/api/packages/create', { token: admin, body: { point_value: 1, registration_value: 1 } })).toMatchObject({ status: 422, body: { message: 'The name field is required.' } });
    expect(await call('PUT', '/api/packages/1/update', { token: admin, body: { registration_value: -5 } })).toMatchObject({ status: 422, body: { message: 'The registration value must be at least ₦1.' } });
  });
});

describe('ranks', () => {
  let rankId: number;

  it('lists the ranks with their package for a signed-in member, not for strangers', async () => {
    expect((await call('GET', '/api/ranks/all')).status).toBe(401);
    const ranks = await call('GET', '/api/ranks/all', { token: member });
    expect(ranks.body.data).toHaveLength(7);
    expect(ranks.body.data[4]).toMatchObject({ id: 5, name: 'Director', is_global_profit_eligible: 1, package: 4, package_id: 4, package_name: 'Gold' });
    expect((await call('GET', '/api/ranks/3', { token: member })).body.data).toMatchObject({ name: 'Manager', is_global_profit_eligible: 0 });
    expect((await call('GET', '/api/ranks/42', { token: member })).status).toBe(404);
  });

  it('creates a rank and needs its package on edit ("Package required")', async () => {
    const created = await call('POST', '/api/ranks/create', { token: admin, body: { name: 'Royal Crown', points: 1_000_000, is_global_profit_eligible: '1', description: 'Beyond the top.', package_id: 6 } });
    expect(created).toMatchObject({ status: 200, body: { message: 'Rank created successfully', data: { name: 'Royal Crown', is_global_profit_eligible: 1, package_name: 'Crown' } } });
    rankId = created.body.data.id;
    expect(await call('PUT', `/api/ranks/${rankId}/update`, { token: admin, body: { name: 'Royal Crown', points: 900_000 } })).toMatchObject({ status: 422, body: { message: 'Package required' } });
    expect(await call('PUT', `/api/ranks/${rankId}/update`, { token: admin, body: { package_id: 99 } })).toMatchObject({ status: 422, body: { message: 'The selected package is invalid.' } });
    const updated = await call('PUT', `/api/ranks/${rankId}/update`, { token: admin, body: { name: 'Royal Crown', points: 900_000, is_global_profit_eligible: 0, package_id: 6 } });
    expect(updated).toMatchObject({ status: 200, body: { message: 'Rank updated successfully', data: { points: 900_000, is_global_profit_eligible: 0 } } });
    expect(await lastEvent(`rank-${rankId}`)).toMatchObject({
      type: 'RankUpdated',
      data: { changes: { points: 900_000, is_global_profit_eligible: false }, previous: { points: 1_000_000, is_global_profit_eligible: true } },
      metadata: adminActor(),
    });
    expect((await call('PUT', `/api/ranks/${rankId}/update`, { token: finance, body: { package_id: 6 } })).status).toBe(403);
  });

  it("answers a rank's badge: its incentive's image", async () => {
    const badge = await call('GET', '/api/ranks/current-rank-badge/2', { token: member });
    expect(badge).toMatchObject({ status: 200, body: { data: { id: 2, name: 'Supervisor', points: 500, file_path: null } } });
  });

  describe('incentives (multipart, image in file_path)', () => {
    it('lists one incentive per seeded rank, in naira', async () => {
      const list = await call('GET', '/api/incentives/all', { token: member });
      expect(list.body.data).toHaveLength(7);
      expect(list.body.data[1]).toMatchObject({ name: 'Supervisor', points: 500, incentive: 'Android phone', worth: 120_000, rank_id: 2, file_path: null });
      expect((await call('GET', `/api/incentives/${list.body.data[1].id}`, { token: member })).body.data.incentive).toBe('Android phone');
      expect((await call('GET', '/api/incentives/404', { token: member })).status).toBe(404);
    });

    it('creates an incentive with an image, which the badge of its rank then shows', async () => {
      const created = await multipart('POST', '/api/incentives/create', admin, { rank_id: rankId, incentive: 'Duplex fund ₦50,000,000', worth: 50_000_000 }, { file_path: { filename: 'duplex.png', content: tinyPng(), type: 'image/png' } });
      expect(created).toMatchObject({ status: 200, body: { message: 'Incentive created successfully', data: { name: 'Royal Crown', worth: 50_000_000, rank_id: rankId } } });
      const filePath = created.body.data.file_path as string;
      expect(filePath).toMatch(/^storage\/incentives\/.+\.png$/);
      expect((await t.app.inject({ method: 'GET', url: `/${filePath}` })).statusCode).toBe(200);
      expect((await call('GET', `/api/ranks/current-rank-badge/${rankId}`, { token: member })).body.data.file_path).toBe(filePath);
    });

    it('allows one incentive per rank', async () => {
      const again = await multipart('POST', '/api/incentives/create', admin, { rank_id: 2, incentive: 'Tablet', worth: 80_000 });
      expect(again).toMatchObject({ status: 422, body: { message: 'This rank already has an incentive; edit that one instead.' } });
    });

    it('updates without a file (the image stays) and records the previous worth', async () => {
      const list = await call('GET', '/api/incentives/all', { token: admin });
      const phone = list.body.data.find((i: { rank_id: number }) => i.rank_id === 2);
      const updated = await multipart('POST', `/api/incentives/${phone.id}/update`, admin, { rank_id: 2, incentive: 'Android phone', worth: 150_000 });
      expect(updated).toMatchObject({ status: 200, body: { message: 'Incentive updated successfully', data: { worth: 150_000, file_path: null } } });
      expect(await lastEvent(`incentive-${phone.id}`)).toMatchObject({
        type: 'IncentiveUpdated',
        data: { incentive_id: phone.id, changes: { worth_kobo: 15_000_000 }, previous: { worth_kobo: 12_000_000 } },
        metadata: adminActor(),
      });
    });

    it('refuses an image over 500 kB, a text file named .png, a bad worth, and finance staff', async () => {
      const list = await call('GET', '/api/incentives/all', { token: admin });
      const id = list.body.data[0].id;
      const tooLarge = await multipart('POST', `/api/incentives/${id}/update`, admin, { worth: 1 }, { file_path: { filename: 'big.png', content: pngOfSize(500_001), type: 'image/png' } });
      expect(tooLarge).toMatchObject({ status: 422, body: { message: 'Image size should not exceed 500kB' } });
      const notAnImage = await multipart('POST', `/api/incentives/${id}/update`, admin, { worth: 1 }, { file_path: { filename: 'notes.png', content: Buffer.from('just some text, not a picture'), type: 'image/png' } });
      expect(notAnImage).toMatchObject({ status: 422, body: { message: 'The file must be a JPEG, PNG or WebP image.' } });
      expect(await multipart('POST', `/api/incentives/${id}/update`, admin, { worth: 'lots' })).toMatchObject({ status: 422, body: { message: 'The worth must be an amount in naira.' } });
      expect((await multipart('POST', `/api/incentives/${id}/update`, finance, { worth: 1 })).status).toBe(403);
      expect((await multipart('POST', '/api/incentives/create', member, { rank_id: 1, incentive: 'x', worth: 1 })).status).toBe(403);
      expect((await call('GET', `/api/incentives/${id}`, { token: admin })).body.data.worth).toBe(15_000);
    });
  });
});

describe('company bank accounts', () => {
  it('creates, lists, reads, updates and deletes an account; each step is an event naming the admin', async () => {
    expect((await call('GET', '/api/banks/all', { token: member })).body.data).toHaveLength(2);
    const created = await call('POST', '/api/banks/create', { token: admin, body: { bank_name: 'Access Bank', bank_account_name: 'Herbal Life Network Ltd', bank_account_number: '0690000031' } });
    expect(created).toMatchObject({ status: 200, body: { message: 'Bank created successfully', data: { bank_name: 'Access Bank' } } });
    const id = created.body.data.id as number;
    expect((await call('GET', `/api/banks/${id}/single`, { token: member })).body.data.bank_account_number).toBe('0690000031');

    const updated = await call('PUT', `/api/banks/${id}/update`, { token: admin, body: { bank_account_number: '0690000032' } });
    expect(updated).toMatchObject({ status: 200, body: { message: 'Bank updated successfully', data: { bank_account_number: '0690000032' } } });
    expect(await lastEvent(`company-bank-${id}`)).toMatchObject({ type: 'CompanyBankUpdated', data: { changes: { bank_account_number: '0690000032' }, previous: { bank_account_number: '0690000031' } }, metadata: adminActor() });

    const deleted = await call('DELETE', `/api/banks/${id}/delete`, { token: admin });
    expect(deleted).toMatchObject({ status: 200, body: { message: 'Bank deleted successfully', data: { id } } });
    expect(await lastEvent(`company-bank-${id}`)).toMatchObject({ type: 'CompanyBankRemoved', data: { bank_id: id }, metadata: adminActor() });
    expect((await call('GET', '/api/banks/all', { token: member })).body.data.map((b: { id: number }) => b.id)).not.toContain(id);
    expect((await call('GET', `/api/banks/${id}/single`, { token: member })).status).toBe(404);

    // Deleting again changes nothing; editing a deleted account is refused; its id is never given again.
    const events = await eventCount(`company-bank-${id}`);
    expect((await call('DELETE', `/api/banks/${id}/delete`, { token: admin })).status).toBe(200);
    expect(await eventCount(`company-bank-${id}`)).toBe(events);
    expect(await call('PUT', `/api/banks/${id}/update`, { token: admin, body: { bank_name: 'Zenith Bank' } })).toMatchObject({ status: 422, body: { message: 'This bank account has been deleted and cannot be changed.' } });
    const next = await call('POST', '/api/banks/create', { token: admin, body: { bank_name: 'Wema Bank', bank_account_name: 'Herbal Life Network Ltd', bank_account_number: '0123456780' } });
    expect(next.body.data.id).toBe(id + 1);
  });

  it('checks the account number, and keeps members and finance staff out of changes', async () => {
    expect(await call('POST', '/api/banks/create', { token: admin, body: { bank_name: 'Access Bank', bank_account_name: 'HLN', bank_account_number: '12345' } })).toMatchObject({
      status: 422,
      body: { message: 'The account number must be 10 digits.', errors: { bank_account_number: ['The account number must be 10 digits.'] } },
    });
    expect((await call('DELETE', '/api/banks/1/delete', { token: finance })).status).toBe(403);
    expect((await call('PUT', '/api/banks/1/update', { token: member, body: { bank_name: 'X' } })).status).toBe(403);
    expect((await call('DELETE', '/api/banks/999/delete', { token: admin })).status).toBe(404);
  });

  it('gives concurrent creations distinct ids', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => call('POST', '/api/banks/create', { token: admin, body: { bank_name: `Bank ${n}`, bank_account_name: 'HLN', bank_account_number: `100000000${n}` } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(5);
  });
});

describe('stockist packages', () => {
  it('lists the seeded packages for members, creates one with defaults, updates it', async () => {
    const list = await call('GET', '/api/stockist-packages/all', { token: member });
    expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(['Mini Stockist', 'Standard Stockist', 'Master Stockist']);
    expect(list.body.data[0]).toMatchObject({ registration_value: 100_000, sales_bonus_percentage: 5, pickup_amount: 80_000, point_value: 1, value: 1 });

    const created = await call('POST', '/api/stockist-packages/create', { token: admin, body: { name: 'Mega Stockist', registration_value: 1_000_000, sales_bonus_percentage: 12, pickup_amount: 900_000, value: 4 } });
    expect(created).toMatchObject({ status: 200, body: { message: 'Stockist package created successfully', data: { point_value: 1, value: 4 } } });
    const id = created.body.data.id;
    expect((await call('GET', `/api/stockist-packages/${id}/single`, { token: member })).body.data.name).toBe('Mega Stockist');

    const updated = await call('PUT', `/api/stockist-packages/${id}/update`, { token: admin, body: { sales_bonus_percentage: 11.5 } });
    expect(updated).toMatchObject({ status: 200, body: { message: 'Stockist package updated successfully', data: { sales_bonus_percentage: 11.5 } } });
    expect(await lastEvent(`stockist-package-${id}`)).toMatchObject({ type: 'StockistPackageUpdated', data: { changes: { sales_bonus_percentage: 11.5 }, previous: { sales_bonus_percentage: 12 } }, metadata: adminActor() });

    expect(await call('PUT', `/api/stockist-packages/${id}/update`, { token: admin, body: { sales_bonus_percentage: 120 } })).toMatchObject({ status: 422, body: { message: 'The rebate percentage must be between 0 and 100.' } });
    expect((await call('PUT', `/api/stockist-packages/${id}/update`, { token: finance, body: { value: 5 } })).status).toBe(403);
    expect((await call('GET', '/api/stockist-packages/99/single', { token: member })).status).toBe(404);
  });
});

describe('products', () => {
  it('creates a product (multipart with image), updates it, disables and enables it', async () => {
    expect((await call('GET', '/api/products/active', { token: member })).body.data).toHaveLength(8);
    const created = await multipart('POST', '/api/products/create', admin, { name: 'Turmeric Capsules', worth: 7_500, description: 'Curcumin 500 mg.' }, { image: { filename: 'turmeric.png', content: tinyPng(), type: 'image/png' } });
    expect(created).toMatchObject({ status: 200, body: { message: 'Product created successfully', data: { name: 'Turmeric Capsules', worth: 7_500, points: 1, is_active: true } } });
    const id = created.body.data.id as number;
    expect(created.body.data.image).toMatch(/^storage\/products\/.+\.png$/);

    const updated = await multipart('POST', `/api/products/${id}/update`, admin, { name: 'Turmeric Capsules', worth: 8_000, description: 'Curcumin 500 mg.' });
    expect(updated).toMatchObject({ status: 200, body: { message: 'Product updated successfully', data: { worth: 8_000, image: created.body.data.image } } });
    expect(await lastEvent(`product-${id}`)).toMatchObject({ type: 'ProductUpdated', data: { changes: { worth_kobo: 800_000 }, previous: { worth_kobo: 750_000 } }, metadata: adminActor() });

    const disabled = await call('PUT', `/api/products/${id}/toggle-status`, { token: admin, body: { is_active: false } });
    expect(disabled).toMatchObject({ status: 200, body: { message: 'Product disabled successfully', data: { is_active: false } } });
    expect((await call('GET', '/api/products/active', { token: member })).body.data.map((p: { id: number }) => p.id)).not.toContain(id);
    expect((await call('GET', '/api/products/all', { token: finance })).body.data.map((p: { id: number }) => p.id)).toContain(id);
    expect(await lastEvent(`product-${id}`)).toMatchObject({ data: { changes: { is_active: false }, previous: { is_active: true } } });

    const enabled = await call('PUT', `/api/products/${id}/toggle-status`, { token: admin, body: { is_active: 1 } });
    expect(enabled).toMatchObject({ status: 200, body: { message: 'Product enabled successfully', data: { is_active: true } } });
    expect((await call('GET', `/api/products/${id}`, { token: member })).body.data.is_active).toBe(true);
  });

  it('needs a name and a price, keeps the admin list from members, and writes from finance staff', async () => {
    expect(await multipart('POST', '/api/products/create', admin, { name: 'No price' })).toMatchObject({ status: 422, body: { message: 'The price field is required.' } });
    expect(await multipart('POST', '/api/products/create', admin, { worth: 100 })).toMatchObject({ status: 422, body: { message: 'The name field is required.' } });
    const tooLarge = await multipart('POST', '/api/products/create', admin, { name: 'Big', worth: 100 }, { image: { filename: 'big.png', content: pngOfSize(500_001), type: 'image/png' } });
    expect(tooLarge).toMatchObject({ status: 422, body: { message: 'Image size should not exceed 500kB' } });
    expect((await call('GET', '/api/products/all', { token: member })).status).toBe(403);
    expect((await call('PUT', '/api/products/1/toggle-status', { token: finance, body: { is_active: false } })).status).toBe(403);
    expect((await call('PUT', '/api/products/999/toggle-status', { token: admin, body: { is_active: false } })).status).toBe(404);
  });
});

describe('bill-payment catalogue (service providers and product services)', () => {
  it('maintains providers and their services; members find the active services of a kind', async () => {
    const providers = await call('GET', '/api/service-providers', { token: member });
    expect(providers.body.data.map((p: { code: string }) => p.code)).toEqual(expect.arrayContaining(['mtn', 'airtel', 'ikeja-electric', 'dstv']));

    const created = await call('POST', '/api/service-providers/create', { token: admin, body: { name: 'Glo', code: 'glo' } });
    expect(created).toMatchObject({ status: 200, body: { message: 'Service provider created successfully', data: { name: 'Glo', is_active: true } } });
    const providerId = created.body.data.id;
    expect((await call('GET', `/api/service-providers/${providerId}/provider`, { token: member })).body.data.code).toBe('glo');
    const renamed = await call('PUT', `/api/service-providers/${providerId}/update`, { token: admin, body: { name: 'Globacom' } });
    expect(renamed).toMatchObject({ status: 200, body: { message: 'Service provider updated successfully', data: { name: 'Globacom' } } });
    expect(await lastEvent(`service-provider-${providerId}`)).toMatchObject({ type: 'ServiceProviderUpdated', data: { changes: { name: 'Globacom' }, previous: { name: 'Glo' } }, metadata: adminActor() });

    const service = await call('POST', '/api/product-services/create', { token: admin, body: { service_provider_id: providerId, service: 'airtime', name: 'Glo airtime ₦200', amount: 200 } });
    expect(service).toMatchObject({ status: 200, body: { message: 'Product service created successfully', data: { service_provider_name: 'Globacom', amount: 200, is_active: true } } });
    const serviceId = service.body.data.id;
    expect((await call('GET', `/api/product-services/${serviceId}/service`, { token: member })).body.data.name).toBe('Glo airtime ₦200');
    expect((await call('GET', '/api/product-services', { token: member })).body.data.length).toBeGreaterThanOrEqual(6);
    const airtime = await call('GET', '/api/product-services/service?service=airtime', { token: member });
    expect(airtime.body.data.map((s: { id: number }) => s.id)).toContain(serviceId);
    expect(airtime.body.data.every((s: { service: string }) => s.service === 'airtime')).toBe(true);

    const retired = await call('PUT', `/api/product-services/${serviceId}/update`, { token: admin, body: { is_active: false, amount: 250 } });
    expect(retired).toMatchObject({ status: 200, body: { message: 'Product service updated successfully', data: { is_active: false, amount: 250 } } });
    expect((await call('GET', '/api/product-services/service?service=airtime', { token: member })).body.data.map((s: { id: number }) => s.id)).not.toContain(serviceId);
    expect(await lastEvent(`product-service-${serviceId}`)).toMatchObject({ data: { changes: { is_active: false, amount_kobo: 25_000 }, previous: { is_active: true, amount_kobo: 20_000 } } });
  });

  it('refuses an unknown provider, a bad code, and writes by finance staff', async () => {
    expect(await call('POST', '/api/product-services/create', { token: admin, body: { service_provider_id: 999, service: 'data', name: 'x', amount: 1 } })).toMatchObject({ status: 422, body: { message: 'The selected service provider is invalid.' } });
    expect((await call('POST', '/api/service-providers/create', { token: admin, body: { name: 'Nine Mobile', code: '9 Mobile!' } })).status).toBe(422);
    expect((await call('POST', '/api/service-providers/create', { token: finance, body: { name: 'Nine Mobile', code: '9mobile' } })).status).toBe(403);
    expect((await call('PUT', '/api/service-providers/1/update', { token: member, body: { name: 'x' } })).status).toBe(403);
    expect((await call('GET', '/api/service-providers/999/provider', { token: member })).status).toBe(404);
    expect((await call('GET', '/api/product-services/999/service', { token: member })).status).toBe(404);
  });
});

describe('the event log for the back office (ra-data-simple-rest)', () => {
  const url = (params: Record<string, unknown>) => `/api/admin/events?${new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)])))}`;

  it('lists events newest first with Content-Range, filtered by type, stream and actor', async () => {
    const page = await t.app.inject({ method: 'GET', url: url({ sort: ['global_position', 'DESC'], range: [0, 24], filter: { type: 'CompanyBankUpdated', actor_id: adminId } }), headers: { authorization: `Bearer ${finance}` } });
    expect(page.statusCode).toBe(200);
    const records = page.json() as Array<{ id: number; type: string; stream_id: string; metadata: { actor: { id: string } }; recorded_at: string }>;
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(records.every((r) => r.type === 'CompanyBankUpdated' && r.metadata.actor.id === adminId)).toBe(true);
    // The log is never counted (docs/audit.md): the total is '*', and X-Next-Cursor says more follow.
    expect(page.headers['content-range']).toBe(`events 0-${records.length - 1}/*`);
    expect(records.map((r) => r.id)).toEqual([...records.map((r) => r.id)].sort((a, b) => b - a));

    const one = await t.app.inject({ method: 'GET', url: `/api/admin/events/${records[0]!.id}`, headers: { authorization: `Bearer ${admin}` } });
    expect(one.json()).toMatchObject({ id: records[0]!.id, type: 'CompanyBankUpdated', stream_id: records[0]!.stream_id });

    const byStream = await t.app.inject({ method: 'GET', url: url({ filter: { stream_id: 'package-2' }, range: [0, 0] }), headers: { authorization: `Bearer ${admin}` } });
    expect(byStream.json()).toHaveLength(1);
    expect(byStream.headers['content-range']).toBe('events 0-0/*');
    expect(byStream.headers['x-next-cursor']).toBe(String(byStream.json()[0].id));
    const many = await t.app.inject({ method: 'GET', url: url({ filter: { id: [records[0]!.id] } }), headers: { authorization: `Bearer ${admin}` } });
    expect(many.json()).toHaveLength(1);
  });

  it('filters by date, is for staff only, and refuses unknown sort fields and malformed filters with 422', async () => {
    const since = await t.app.inject({ method: 'GET', url: url({ filter: { recorded_at_gte: '2000-01-01T00:00:00Z', type: ['ProductDefined', 'CompanyBankDefined'] }, range: [0, 99] }), headers: { authorization: `Bearer ${admin}` } });
    expect((since.json() as Array<{ type: string }>).length).toBeGreaterThanOrEqual(10);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/events', headers: { authorization: `Bearer ${member}` } })).statusCode).toBe(403);
    const badSort = await t.app.inject({ method: 'GET', url: url({ sort: ['password', 'ASC'] }), headers: { authorization: `Bearer ${admin}` } });
    expect(badSort.statusCode).toBe(422);
    const badId = await t.app.inject({ method: 'GET', url: url({ filter: { id: 'abc' } }), headers: { authorization: `Bearer ${admin}` } });
    expect(badId.json()).toMatchObject({ message: 'The filter id must be a number.' });
    expect((await t.app.inject({ method: 'GET', url: url({ filter: { secret: 1 } }), headers: { authorization: `Bearer ${admin}` } })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/events/99999999', headers: { authorization: `Bearer ${admin}` } })).statusCode).toBe(404);
  });
});

describe('the OpenAPI description', () => {
  it('describes every catalogue, settings and event-log path', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths);
    const expected = [
      '/api/packages/create', '/api/packages/{id}/update', '/api/ranks/current-rank-badge/{id}', '/api/incentives/{id}/update', '/api/banks/{id}/delete',
      '/api/stockist-packages/create', '/api/products/{id}/toggle-status', '/api/service-providers/{id}/provider', '/api/product-services/service',
      '/api/settings/update', '/api/settings/{name}', '/api/settings/update-referral-bonus/{id}', '/api/settings/stockist-upline-bonus/{id}', '/api/admin/events',
    ];
    expect(paths).toEqual(expect.arrayContaining(expected));
  });
});
