import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { hashPassword } from '../src/auth/passwords';
import { consumers } from '../src/consumers';
import { createDb } from '../src/core/db';
import { registerMember } from '../src/membership/commands';
import { decideByAdmin, startPackagePayment } from '../src/payments/commands';
import { demoLogins, seedDemoCompany } from '../src/seed/demo-company';
import { type BenchModule, type Table, fmtInt, fmtMs } from './harness';
import { type BulkMember, appendMembers, benchMetadata, commandContext, drainAll, quantile, rootId } from './network';

/**
 * Activation latency: from the admin's approval of a registration payment (decideByAdmin, the
 * command behind PATCH /payments/package-payments/{id}/approve) until its bonuses are in the
 * wallet tables, every consumer of services/src/consumers.ts drained as the worker would
 * (drainConsumer in list order, passes until one applies nothing). Three cases in one database,
 * measured in interleaved rounds so load drifts hit them alike:
 *   reference       sponsored by the root, placed a few levels under it (binary fill)
 *   sponsor chain   sponsored by the bottom of a 10-generation sponsor chain (10 generations paid)
 *   depth N         sponsored by the root, placed N levels down a 10,000-deep placement chain
 *                   (N = 10, 100, 1,000, 10,000: BENCH_ACTIVATION_DEPTHS), the growth curve
 * Everyone pays Crown (the package whose table reaches all 10 generations). BENCH_ACTIVATIONS
 * (20) per case, after one unmeasured warm-up each; BENCH_PLACEMENT_DEPTH (10000).
 *
 * Cascade rounds (BENCH_CASCADES, 4; 0: none), after the rounds above: the deep case's activations
 * lift its 10,000 ancestors to a new rank only twice in 20 (at 500 and 2,000 CPV), so its p95 was
 * one cascade a run. Each cascade round raises the CPV of the deepest member's path, in
 * member_points directly (unmeasured; the CPV hundreds of activations below it would bring), to one
 * Crown's PV short of the next rank, then measures a reference activation and a depth-N activation
 * (order alternating), which now lifts the chain: `cascade, depth N` against `reference, cascade
 * rounds`. One per rank left above the chain (four after the rounds: 10,000 to 500,000 CPV).
 */

const SPONSOR_GENERATIONS = 10;
const CROWN = 6;

/** 'reference', 'sponsor chain', and one 'depth N' case per placement depth measured. */
type CaseName = string;
type Measured = { ms: number; perConsumer: Map<string, number>; bonusRows: number; rankRises: number };

function envInt(name: string, fallback: number, least = 1): number {
  const raw = process.env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < least) throw new Error(`${name} must be an integer ≥ ${least}`);
  return n;
}

const activationBench: BenchModule = {
  name: 'activation',
  description: 'payment approval → bonuses in the wallet tables, deep networks ÷ a member under the root',
  async run(ctx) {
    const activations = envInt('BENCH_ACTIVATIONS', 20);
    const placementDepth = envInt('BENCH_PLACEMENT_DEPTH', 10_000);
    const cascadeRounds = envInt('BENCH_CASCADES', 4, 0);
    // The growth curve: activations placed 10, 100, 1,000 and 10,000 levels down the same chain.
    const chainDepths = (process.env.BENCH_ACTIVATION_DEPTHS ?? '10,100,1000,10000')
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((d) => Number.isInteger(d) && d >= 1 && d <= placementDepth);
    if (!chainDepths.includes(placementDepth)) chainDepths.push(placementDepth);
    chainDepths.sort((a, b) => a - b);
    const depthCase = (depth: number) => `depth ${fmtInt(depth)}`;
    const database = await ctx.freshDatabase('activation');
    const db = createDb(database.connectionString, { max: 4, applicationName: 'portal-bench-activation' });
    const commands = commandContext(db);
    const now = new Date();
    try {
      await seedDemoCompany(commands, now);
      const root = await rootId(db);

      // --- The networks, in bulk (services/bench/network.ts): root's left leg is the placement
      // chain P1..Pn (each sponsored by the root); its right child R holds the sponsor chain
      // S1..S10 (S1 sponsored by the root, each S the next one's sponsor and placement parent)
      // on its left and the reference anchor Q on its right.
      const member = (username: string, sponsorId: string, placementParentId: string, leg: 'left' | 'right'): BulkMember => ({ id: randomUUID(), username, sponsorId, placementParentId, leg, packageId: CROWN });
      const network: BulkMember[] = [];
      let parent = root;
      for (let i = 1; i <= placementDepth; i++) {
        const p = member(`p${i}`, root, parent, 'left');
        network.push(p);
        parent = p.id;
      }
      const r = member('r', root, root, 'right');
      const q = member('q', root, r.id, 'right');
      network.push(r, q);
      let sponsor = root;
      parent = r.id;
      for (let i = 1; i <= SPONSOR_GENERATIONS; i++) {
        const s = member(`s${i}`, sponsor, parent, 'left');
        network.push(s);
        sponsor = s.id;
        parent = s.id;
      }
      const bottomOfPlacementChain = network[placementDepth - 1]!;
      const bottomOfSponsorChain = network[network.length - 1]!;

      ctx.log(`activation: appending ${network.length} members in bulk`);
      let t0 = performance.now();
      await appendMembers(db, network, now);
      const appendSeconds = (performance.now() - t0) / 1000;
      ctx.log(`activation: appended in ${appendSeconds.toFixed(1)} s; consumers catching up on the setup`);
      t0 = performance.now();
      const setupDrain = await drainAll(db);
      const setupDrainSeconds = (performance.now() - t0) / 1000;
      ctx.log(`activation: consumers caught up in ${setupDrainSeconds.toFixed(1)} s (${[...setupDrain.perConsumer].map(([c, ms]) => `${c} ${(ms / 1000).toFixed(1)} s`).join(', ')})`);

      // --- The measured members: registered and their receipts uploaded (unmeasured), each case
      // filling its anchor's subtree breadth-first.
      const passwordHash = await hashPassword('bench password 2026');
      const admin = await db.selectFrom('admins').select('id').where('email', '=', demoLogins.admin.email).executeTakeFirstOrThrow();
      // A chain member above the bottom has its left leg taken by the next: one free leg (the right).
      type Anchor = { sponsorId: string; sponsorUsername: string; anchor: { id: string; username: string }; freeLegs: number };
      const anchors: Record<CaseName, Anchor> = {
        reference: { sponsorId: root, sponsorUsername: 'herbalhq', anchor: { id: q.id, username: q.username }, freeLegs: 2 },
        'sponsor chain': { sponsorId: bottomOfSponsorChain.id, sponsorUsername: bottomOfSponsorChain.username, anchor: { id: bottomOfSponsorChain.id, username: bottomOfSponsorChain.username }, freeLegs: 2 },
      };
      for (const depth of chainDepths) {
        const p = network[depth - 1]!;
        anchors[depthCase(depth)] = { sponsorId: root, sponsorUsername: 'herbalhq', anchor: { id: p.id, username: p.username }, freeLegs: depth === placementDepth ? 2 : 1 };
      }
      void bottomOfPlacementChain;
      const cases = Object.keys(anchors);
      // The cascade rounds' members: as many more for the reference and the deepest case.
      const extra = (name: CaseName) => (name === 'reference' || name === depthCase(placementDepth) ? cascadeRounds : 0);
      const payments: Record<CaseName, Array<{ paymentId: string; memberId: string }>> = Object.fromEntries(cases.map((name) => [name, []]));
      ctx.log(`activation: registering ${cases.length} × ${activations + 1} (+ 2 × ${cascadeRounds}) members and their receipts`);
      let serial = 0;
      for (const name of cases) {
        const open = Array.from({ length: anchors[name]!.freeLegs }, () => anchors[name]!.anchor.username);
        for (let i = 0; i <= activations + extra(name); i++) {
          const placement = open.shift()!;
          const username = `bench${++serial}`;
          const { memberId } = await registerMember(
            commands,
            { first_name: 'Bench', last_name: name, username, password: 'unused', email: `${username}@bench.test`, phone: '08030000000', referrer: placement, placer: anchors[name]!.sponsorUsername, package_id: CROWN, passwordHash },
            benchMetadata(now),
          );
          open.push(username, username);
          const started = await startPackagePayment(
            commands,
            { memberId, purpose: 'registration', method: 'pop', targetPackageId: null, amountNaira: null, description: 'bench', receiptPath: 'storage/receipts/bench.png' },
            benchMetadata(now),
          );
          payments[name]!.push({ paymentId: started.paymentId, memberId });
        }
      }
      await drainAll(db);

      // --- Measure: rounds of one activation per case, the case order rotating each round.
      const results: Record<CaseName, Measured[]> = Object.fromEntries(cases.map((name) => [name, []]));
      const measure = async (name: CaseName, { paymentId, memberId }: { paymentId: string; memberId: string }): Promise<Measured> => {
        await drainAll(db);
        const logEnd = (await sql<{ p: number }>`select coalesce(max(global_position), 0)::bigint as p from events`.execute(db)).rows[0]!.p;
        const started = performance.now();
        await decideByAdmin(commands, paymentId, { type: 'approve' }, { ...benchMetadata(new Date()), actor: { type: 'admin', id: admin.id } });
        const { perConsumer, settledAt } = await drainAll(db);
        const ms = settledAt - started;
        const activation = await db.selectFrom('events').select('event_id').where('stream_id', '=', `member-${memberId}`).where('type', '=', 'MemberActivated').executeTakeFirstOrThrow();
        const bonusRows = (await db.selectFrom('wallet_entries').select('global_position').where('cause_event_id', '=', activation.event_id).execute()).length;
        if (bonusRows === 0) throw new Error(`activation of ${name} member ${memberId}: no bonus in the wallet tables`);
        // Ranks the activation's PV lifted, up the whole placement path (the points policy).
        // A cascade of more than RANK_EVENTS_PER_MEMBER_UP_TO is one RanksAchieved naming them all.
        const rankRises = (
          await sql<{ n: number }>`
            select coalesce(sum(case when type = 'RankAchieved' then 1 else coalesce(jsonb_array_length(data->'columns'->'member_id'), jsonb_array_length(data->'ranks')) end), 0)::int as n
            from events where type in ('RankAchieved', 'RanksAchieved') and global_position > ${logEnd}`.execute(db)
        ).rows[0]!.n;
        return { ms, perConsumer, bonusRows, rankRises };
      };
      for (let round = 0; round <= activations; round++) {
        for (let k = 0; k < cases.length; k++) {
          const name = cases[(round + k) % cases.length]!;
          const measured = await measure(name, payments[name]![round]!);
          if (round > 0) results[name]!.push(measured);
        }
        if (round % 5 === 0) ctx.log(`activation: round ${round}/${activations}`);
      }

      // --- Cascade rounds (see the header): the deepest member's path raised to one Crown short of
      // the next rank, then a reference and a deep activation measured, the order alternating.
      const deepCase = depthCase(placementDepth);
      const cascadeCase = `cascade, ${deepCase}`;
      const cascadeReference = 'reference, cascade rounds';
      const crownPv = Number((await db.selectFrom('packages').select('point_value').where('id', '=', CROWN).executeTakeFirstOrThrow()).point_value);
      const cascadeResults: Record<CaseName, Measured[]> = { [cascadeReference]: [], [cascadeCase]: [] };
      for (let k = 0; k < cascadeRounds; k++) {
        await drainAll(db);
        const { rows: chain } = await sql<{ cpv: string; next: string | null }>`
          select p.cpv::text, (select min(r.points) from ranks r where r.points > p.cpv and r.package_id <= ${CROWN})::text as next
          from member_points p where p.member_id = ${bottomOfPlacementChain.id}`.execute(db);
        if (!chain[0]?.next) break;
        const raise = Number(chain[0].next) - Number(chain[0].cpv) - crownPv;
        if (raise > 0) {
          await sql`
            with recursive up(member_id, leg) as (
              select id, null::text from members where id = ${bottomOfPlacementChain.id}
              union all
              select m.placement_parent_id, m.placement_leg::text from up join members m on m.id = up.member_id where m.placement_parent_id is not null
            )
            update member_points mp set cpv = mp.cpv + ${raise}::bigint,
              left_pv = mp.left_pv + case when up.leg = 'left' then ${raise}::bigint else 0 end,
              right_pv = mp.right_pv + case when up.leg = 'right' then ${raise}::bigint else 0 end
            from up where mp.member_id = up.member_id`.execute(db);
        }
        const order = k % 2 === 0 ? ['reference', deepCase] : [deepCase, 'reference'];
        for (const name of order) {
          const measured = await measure(name, payments[name]![activations + 1 + k]!);
          cascadeResults[name === 'reference' ? cascadeReference : cascadeCase]!.push(measured);
        }
        ctx.log(`activation: cascade round ${k + 1}/${cascadeRounds}: ${fmtInt(cascadeResults[cascadeCase]!.at(-1)!.rankRises)} ranks, ${fmtMs(cascadeResults[cascadeCase]!.at(-1)!.ms)} ms`);
      }
      const reported = [...cases];
      if (cascadeResults[cascadeCase]!.length > 0) {
        Object.assign(results, cascadeResults);
        reported.push(cascadeReference, cascadeCase);
      }

      const p = (name: CaseName, q: number) => quantile(results[name]!.map((m) => m.ms), q);
      const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');
      // Placement depth of the measured members (the root is depth 0), as built.
      const depths = async (name: CaseName) => {
        const ids = payments[name]!.map((x) => x.memberId);
        const { rows } = await sql<{ lo: number; hi: number }>`
          with recursive up(start_id, id, depth) as (
            select id, placement_parent_id, 1 from members where id = any(${sql.val(ids)}::uuid[])
            union all
            select up.start_id, m.placement_parent_id, up.depth + 1 from up join members m on m.id = up.id where m.placement_parent_id is not null
          )
          select min(d)::int as lo, max(d)::int as hi from (select start_id, max(depth) as d from up group by start_id) t`.execute(db);
        return `${rows[0]!.lo}–${rows[0]!.hi}`;
      };
      const shape: Record<CaseName, string> = {
        reference: `sponsor: the root; placement depth ${await depths('reference')}`,
        'sponsor chain': `sponsor chain of ${SPONSOR_GENERATIONS + 1} up to the root (10 paid); placement depth ${await depths('sponsor chain')}`,
      };
      for (const depth of chainDepths) shape[depthCase(depth)] = `sponsor: the root; placement depth ${await depths(depthCase(depth))}`;
      shape[cascadeReference] = `${shape.reference}; interleaved with the cascades`;
      shape[cascadeCase] = `${shape[deepCase]}; its path raised to one Crown short of the next rank first`;
      const latency: Table = {
        title: `activation → bonuses in the wallet tables, ${activations} activations per case (ms)`,
        columns: ['case', 'network', 'p50', 'p95', 'max', 'p50 ÷ reference', 'p95 ÷ reference', 'p95 ÷ reference p50 (goal ≤ 3×)', 'wallet rows per activation', 'rank rises (max)'],
        rows: reported.map((name) => [
          name,
          shape[name]!,
          fmtMs(p(name, 0.5)),
          fmtMs(p(name, 0.95)),
          fmtMs(p(name, 1)),
          name === 'reference' ? '—' : ratio(p(name, 0.5), p('reference', 0.5)),
          name === 'reference' ? '—' : ratio(p(name, 0.95), p('reference', 0.95)),
          name === 'reference' ? '—' : ratio(p(name, 0.95), p('reference', 0.5)),
          fmtInt(quantile(results[name]!.map((m) => m.bonusRows), 0.5)),
          fmtInt(Math.max(...results[name]!.map((m) => m.rankRises))),
        ]),
        notes: [
          'one database for all cases; approval and drain run in one process against PostgreSQL on the same machine',
          'rank rises: ranks the activation recorded; an activation whose PV lifts every ancestor of a deep chain to a new rank records a rank for each, as one RanksAchieved when more than 100 (docs/points.md "Rank cascades")',
          'the depth cases share one chain: whichever reaches a CPV threshold first records the cascade for the ancestors they share',
          `setup: ${fmtInt(network.length)} members appended in bulk in ${appendSeconds.toFixed(1)} s, consumers caught up on them in ${setupDrainSeconds.toFixed(1)} s (not measured)`,
        ],
      };
      const consumerNames = consumers.map((c) => c.name);
      const breakdown: Table = {
        title: 'where the time goes: p50 ms per consumer drained (the approval command itself is the rest)',
        columns: ['case', ...consumerNames],
        rows: reported.map((name) => [name, ...consumerNames.map((c) => fmtMs(quantile(results[name]!.map((m) => m.perConsumer.get(c) ?? 0), 0.5)))]),
      };
      // The slowest activation of each case: for a deep case, the cascade (the p95).
      const slowest = (name: CaseName) => results[name]!.reduce((a, b) => (b.ms > a.ms ? b : a));
      const slowestBreakdown: Table = {
        title: 'the slowest activation of each case: ms per consumer drained',
        columns: ['case', 'total', 'rank rises', ...consumerNames],
        rows: reported.map((name) => {
          const m = slowest(name);
          return [name, fmtMs(m.ms), fmtInt(m.rankRises), ...consumerNames.map((c) => fmtMs(m.perConsumer.get(c) ?? 0))];
        }),
      };
      const data = Object.fromEntries(
        reported.map((name) => [
          name,
          {
            network: shape[name]!,
            p50Ms: p(name, 0.5),
            p95Ms: p(name, 0.95),
            ratioP50: p(name, 0.5) / p('reference', 0.5),
            ratioP95: p(name, 0.95) / p('reference', 0.95),
            samplesMs: results[name]!.map((m) => Number(m.ms.toFixed(2))),
            perConsumerP50Ms: Object.fromEntries(consumerNames.map((c) => [c, quantile(results[name]!.map((m) => m.perConsumer.get(c) ?? 0), 0.5)])),
            walletRowsPerActivation: quantile(results[name]!.map((m) => m.bonusRows), 0.5),
            rankRises: results[name]!.map((m) => m.rankRises),
            slowestPerConsumerMs: Object.fromEntries(consumerNames.map((c) => [c, slowest(name).perConsumer.get(c) ?? 0])),
          },
        ]),
      );
      // The growth curve (item 5 of issue 13), for the HTML report: one point per placement depth.
      const growthCurve = chainDepths.map((depth) => {
        const name = depthCase(depth);
        return {
          depth,
          p50Ms: p(name, 0.5),
          p95Ms: p(name, 0.95),
          maxMs: p(name, 1),
          referenceP50Ms: p('reference', 0.5),
          p95OverReferenceP50: p(name, 0.95) / p('reference', 0.5),
          goalMet: p(name, 0.95) <= 3 * p('reference', 0.5),
          rankRisesMax: Math.max(...results[name]!.map((m) => m.rankRises)),
        };
      });
      return { tables: [latency, breakdown, slowestBreakdown], data: { activations, placementDepth, growthCurve, consumers: consumerNames, setup: { members: network.length, appendSeconds, setupDrainSeconds }, cases: data } };
    } finally {
      await db.destroy();
    }
  },
};

export default activationBench;
