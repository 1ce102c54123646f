import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';

/**
 * How the built web apps are served (issue 11 item 7, fast pages): a build's hashed scripts are
 * kept by the browser for a year (a reload asks for none of them), the pages themselves are asked
 * again every time, and the brotli or gzip copy the build wrote is sent to a browser that takes it.
 */
let t: TestApp;
let dist: string;
let adminDist: string;
const script = 'export const greeting = "hello from the member app";\n'.repeat(40);

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'portal-web-apps-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Member Portal</title><div id="root"></div>');
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dist, 'assets/index-CUgZdiKc.js'), script);
  await writeFile(path.join(dist, 'assets/index-CUgZdiKc.js.br'), brotliCompressSync(script));
  await writeFile(path.join(dist, 'assets/index-CUgZdiKc.js.gz'), gzipSync(script));
  adminDist = await mkdtemp(path.join(os.tmpdir(), 'portal-web-admin-'));
  await mkdir(path.join(adminDist, 'assets'));
  await writeFile(path.join(adminDist, 'index.html'), '<!doctype html><title>Back Office</title><div id="root"></div>');
  await writeFile(path.join(adminDist, 'assets/index-B0ackOff.js'), script);
  await writeFile(path.join(adminDist, 'assets/index-B0ackOff.js.br'), brotliCompressSync(script));
  t = await createTestApp({ env: { WEB_MEMBER_DIST: dist, WEB_ADMIN_DIST: adminDist } });
});
afterAll(async () => {
  await t?.close();
  await rm(dist, { recursive: true, force: true });
  await rm(adminDist, { recursive: true, force: true });
});

describe('the member app as served', () => {
  it('keeps hashed scripts a year and asks again for the page and fixed-name files', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-CUgZdiKc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    for (const url of ['/user/dashboard', '/login', '/favicon.svg']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    // Unchanged page: a conditional request gets a 304, so "no-cache" costs no body.
    const page = await t.app.inject({ method: 'GET', url: '/user/wallet' });
    const again = await t.app.inject({ method: 'GET', url: '/user/wallet', headers: { 'if-none-match': String(page.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('sends the brotli copy to a browser taking brotli, gzip to one taking gzip, and the plain file otherwise', async () => {
    const brotli = await t.app.inject({ method: 'GET', url: '/assets/index-CUgZdiKc.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);
    const gzip = await t.app.inject({ method: 'GET', url: '/assets/index-CUgZdiKc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-CUgZdiKc.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it("sends the back office's brotli copy too, kept a year", async () => {
    const brotli = await t.app.inject({ method: 'GET', url: '/admin/assets/index-B0ackOff.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);
  });

  it('still answers 404 for a missing script, not the page', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/assets/index-XXXXXXXX.js' });
    expect(missing.statusCode).toBe(404);
  });
});
