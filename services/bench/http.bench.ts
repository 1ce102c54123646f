import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchContext, BenchModule, Table } from './harness';
import { fmtInt, fmtMs, fmtRatio } from './harness';
import type { HttpApiReady, HttpApiRequest } from './http-api';

/**
 * Commands through HTTP under load (issue 13, item 2). The real api runs in its own process
 * (http-api.ts); autocannon drives it from this one with 32 connections, each signed in as its own
 * funded member, on:
 *   - a withdrawal request (POST /api/withdrawals/:id/initiate): session check, wallet stream
 *     lock, read and fold the wallet stream, decide, append, inline projection, read back;
 *   - a profile update (PUT /api/users/:id/update): session check, read the member, decide on the
 *     profile stream, append, inline projection;
 *   - the reference: POST /bench/reference-insert on the same Fastify instance, one plain INSERT.
 * Each route runs in ROUNDS slices in alternating order (the machine is shared).
 * BENCH_HTTP_PROFILE=1 runs the api with --cpu-prof and prints where its CPU time went.
 * BENCH_HTTP_DOORBELL=0 runs the api without its consumers' doorbell (no Redis ring per commit).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const CONNECTIONS = 32;
const ROUNDS = 2;

export type HttpApi = { ready: HttpApiReady; stop: () => Promise<void>; child: ChildProcess };

/** Forks http-api.ts and waits until it listens. */
export async function startHttpApi(ctx: BenchContext, request: HttpApiRequest): Promise<HttpApi> {
  const child = fork(path.join(here, 'http-api.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<HttpApiReady>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the api process exited (${code}) before listening`)));
    child.once('message', (reply: { ok: boolean; ready?: HttpApiReady; error?: string }) => {
      if (reply.ok) resolve(reply.ready!);
      else reject(new Error(`the api process failed: ${reply.error}`));
    });
    child.send(request);
  });
  ctx.log(`api listening on 127.0.0.1:${ready.port} with ${ready.members.length} signed-in members`);
  return {
    ready,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', (code, signal) => {
          if (code !== 0) ctx.log(`the api process exited with ${code ?? signal}`);
          resolve();
        });
        child.send('stop');
      }),
  };
}

type RouteResult = { requestsPerSecond: number; p50Ms: number; p99Ms: number; requests: number; non2xx: number; errors: number; seconds: number };
type Route = 'reference' | 'withdrawal' | 'profile';

function drive(port: number, members: HttpApiReady['members'], route: Route, seconds: number): Promise<RouteResult> {
  let nextMember = 0;
  let counter = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            // Each connection keeps one member: no two connections contend for a wallet.
            setupRequest: (req: autocannon.Request, connection: object) => {
              const context = connection as { member?: HttpApiReady['members'][number] };
              context.member ??= members[nextMember++ % members.length]!;
              const member = context.member;
              counter++;
              const auth = { 'content-type': 'application/json', authorization: `Bearer ${member.token}` };
              if (route === 'reference') return { ...req, method: 'POST', path: '/bench/reference-insert', headers: { 'content-type': 'application/json' }, body: '{}' };
              if (route === 'withdrawal') return { ...req, method: 'POST', path: `/api/withdrawals/${member.id}/initiate`, headers: auth, body: JSON.stringify({ amount: 2000 }) };
              return { ...req, method: 'PUT', path: `/api/users/${member.id}/update`, headers: auth, body: JSON.stringify({ first_name: 'Bench', last_name: `Member ${counter}`, phone: '08030000000' }) };
            },
          },
        ],
      },
      (error: Error | null, result: autocannon.Result) => {
        if (error) return reject(error);
        resolve({
          requestsPerSecond: result.requests.total / result.duration,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          seconds: result.duration,
        });
      },
    );
  });
}

function merge(slices: RouteResult[]): RouteResult {
  const requests = slices.reduce((n, r) => n + r.requests, 0);
  const seconds = slices.reduce((n, r) => n + r.seconds, 0);
  const weighted = (pick: (r: RouteResult) => number) => slices.reduce((n, r) => n + pick(r) * r.requests, 0) / (requests || 1);
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    p50Ms: weighted((r) => r.p50Ms),
    p99Ms: weighted((r) => r.p99Ms),
    non2xx: slices.reduce((n, r) => n + r.non2xx, 0),
    errors: slices.reduce((n, r) => n + r.errors, 0),
  };
}

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
/** Self time of a V8 .cpuprofile, by function and by where the code lives (our src, a package, node, GC/idle). */
export function summarizeCpuProfile(file: string, top = 12): { byFunction: Array<[string, number]>; byPlace: Array<[string, number]>; totalMs: number } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const fn = new Map<string, number>();
  const place = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame;
    totalMs += ms;
    const url = frame.url.replace(/^file:\/\//, '');
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const where = pkg ? `package ${pkg}` : url.includes('/services/src/') ? `src ${url.split('/services/src/')[1]!.split('/')[0]}` : url.startsWith('node:') ? 'node internals' : url === '' ? `(${frame.functionName || 'native'})` : url.split('/').slice(-2).join('/');
    place.set(where, (place.get(where) ?? 0) + ms);
    const name = `${frame.functionName || '(anonymous)'} ${pkg ?? (url ? url.split('/').slice(-1)[0] + ':' + (frame.lineNumber + 1) : '')}`.trim();
    fn.set(name, (fn.get(name) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { byFunction: sorted(fn), byPlace: sorted(place), totalMs };
}

const httpBench: BenchModule = {
  name: 'http',
  description: `commands through the real api under load: ${CONNECTIONS} connections (autocannon, in the bench process; the api in its own)`,
  async run(ctx) {
    const seconds = Math.max(2, ctx.settings.seconds);
    const database = await ctx.freshDatabase('http');
    const profileDir = process.env.BENCH_HTTP_PROFILE === '1' ? path.join(here, 'profiles', `http-${randomBytes(3).toString('hex')}`) : undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const profileFile = profileDir ? path.join(profileDir, 'api.cpuprofile') : undefined;
    const api = await startHttpApi(ctx, { databaseUrl: database.connectionString, members: CONNECTIONS, queuePrefix: `bench-${randomBytes(4).toString('hex')}`, consumers: process.env.BENCH_HTTP_DOORBELL !== '0', profileFile });
    const slices: Record<Route, RouteResult[]> = { reference: [], withdrawal: [], profile: [] };
    const order: Route[] = ['reference', 'withdrawal', 'profile'];
    try {
      // Warm-up: JIT, pools, plans.
      for (const route of order) await drive(api.ready.port, api.ready.members, route, 1);
      for (let round = 0; round < ROUNDS; round++) {
        for (const route of round % 2 === 0 ? order : [...order].reverse()) {
          ctx.log(`http: ${route}, round ${round + 1}/${ROUNDS}`);
          slices[route].push(await drive(api.ready.port, api.ready.members, route, seconds / ROUNDS));
        }
      }
    } finally {
      await api.stop();
    }
    const result = { reference: merge(slices.reference), withdrawal: merge(slices.withdrawal), profile: merge(slices.profile) };
    const row = (label: string, r: RouteResult) => [
      label, fmtInt(r.requestsPerSecond), fmtMs(r.p50Ms), fmtMs(r.p99Ms), fmtRatio(r.requestsPerSecond, result.reference.requestsPerSecond), `${r.non2xx + r.errors}`,
    ];
    const table: Table = {
      title: `HTTP under load: ${CONNECTIONS} connections, ${seconds} s per route in ${ROUNDS} alternating slices after 1 s warm-up; latency in ms`,
      columns: ['route', 'req/s', 'p50', 'p99', '÷ reference', 'failed'],
      rows: [row('withdrawal request', result.withdrawal), row('profile update', result.profile), row('reference: one plain INSERT', result.reference)],
      notes: [
        'withdrawal: POST /api/withdrawals/:id/initiate {amount: 2000}, each connection its own funded, active member with verified bank details (a weekly payout schedule: the transfer waits for the payout run, no gateway call)',
        'profile: PUT /api/users/:id/update with a new last name each time (an event every request)',
        'reference: POST /bench/reference-insert, registered on the same Fastify instance by the bench only: one INSERT of an event-shaped row, no session',
        'goal (issue 13): ≥ 0.5× the reference req/s, p99 < 25 ms',
      ],
    };
    let profile: ReturnType<typeof summarizeCpuProfile> | null = null;
    if (profileDir) {
      const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
      if (file) {
        profile = summarizeCpuProfile(path.join(profileDir, file));
        table.notes!.push(
          `api CPU profile (${path.relative(process.cwd(), path.join(profileDir, file))}, ${fmtInt(profile.totalMs)} ms sampled): by place ${profile.byPlace.map(([k, ms]) => `${k} ${((100 * ms) / profile!.totalMs).toFixed(1)} %`).join(', ')}`,
          `top functions (self time): ${profile.byFunction.map(([k, ms]) => `${k} ${((100 * ms) / profile!.totalMs).toFixed(1)} %`).join('; ')}`,
        );
      }
      if (process.env.BENCH_KEEP_PROFILES !== '1') rmSync(profileDir, { recursive: true, force: true });
    }
    return { tables: [table], data: { connections: CONNECTIONS, ...result, profile } };
  },
};

export default httpBench;
