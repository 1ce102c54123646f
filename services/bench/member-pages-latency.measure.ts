/**
 * How long the member dashboard's calls take over real HTTP on this machine (issue 11 item 7).
 * A measurement, not a test: speed is never asserted in `npm test` (it would fail on a loaded
 * machine), so this file is outside the test glob. Run it with
 * `npx vitest run --config /dev/null services/bench/member-pages-latency.measure.ts` until it joins
 * `npm run bench` beside a reference (issue 13). Starts the test app on port 0 (its own
 * database), signs the root in, and times each call a few times, then all of them in parallel.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { demoLogins } from '../src/seed/demo-company';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(async () => t.close());

it('answers each member dashboard call fast, and all of them in parallel within the page budget', async () => {
  const base = t.runtime.config.publicUrl;
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: demoLogins.root.username, password: demoLogins.root.password }) });
  const me = (await login.json()) as { data: { uuid: string; access_token: string; package_id: number } };
  const { uuid, access_token: token } = me.data;
  const headers = { authorization: `Bearer ${token}` };
  const paths = [
    '/api/auth/user',
    `/api/users/${uuid}/profile-details`,
    `/api/packages/${me.data.package_id}/single`,
    `/api/bonuses/${uuid}/bonus-stats`,
    `/api/bonuses/${uuid}/wallet-balance`,
    `/api/users/${uuid}/total-pv`,
    `/api/incentive-claims/${uuid}/current-incentive`,
    '/api/settings/all',
    `/api/wallet/${uuid}/bonuses?page=1`,
    `/api/withdrawals/${uuid}/user-history?page=1`,
    '/api/health',
  ];
  async function time(path: string): Promise<[number, number]> {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    await res.arrayBuffer();
    return [performance.now() - started, res.status];
  }
  for (const path of paths) await time(path); // warm up
  const medians: number[] = [];
  for (const path of paths) {
    const runs: number[] = [];
    let status = 0;
    for (let i = 0; i < 5; i++) {
      const [ms, s] = await time(path);
      runs.push(ms);
      status = s;
    }
    runs.sort((a, b) => a - b);
    medians.push(runs[2]!);
    console.log(`${String(status).padEnd(4)} median ${runs[2]!.toFixed(1).padStart(7)} ms  ${path}`);
  }
  const started = performance.now();
  await Promise.all(paths.map(time));
  const parallel = performance.now() - started;
  console.log(`all ${paths.length} in parallel: ${parallel.toFixed(1)} ms`);
  expect(Math.max(...medians)).toBeLessThan(100);
  expect(parallel).toBeLessThan(400);
});
