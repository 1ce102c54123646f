import { randomUUID } from 'node:crypto';
import { timeOrderedId } from '../src/core/ids';

/**
 * The benchmark harness's shared vocabulary. Benchmarks live in `<name>.bench.ts` files exporting
 * `{ name, run(ctx) }` and are listed in run.ts. This file must not import services/src/core/db.ts:
 * the Emmett worker process imports it too, and db.ts changes pg's global int8 parser.
 */

export type Settings = {
  /** Measured seconds per throughput run (BENCH_SECONDS). */
  seconds: number;
  /** Unmeasured warm-up seconds before each throughput run (BENCH_WARMUP_SECONDS). */
  warmupSeconds: number;
  /** Events loaded for the consumer catch-up benchmarks (BENCH_EVENTS). */
  events: number;
  /** Events Emmett's consumer + projector handles (BENCH_EMMETT_PROCESSOR_EVENTS; it does ~2 statements per event). */
  emmettProcessorEvents: number;
  /** Writer counts for the append benchmarks (BENCH_CONCURRENCY, comma-separated). */
  concurrency: number[];
};

export type FreshDatabase = { name: string; connectionString: string };

export type BenchContext = {
  settings: Settings;
  /** Creates, migrates (migrateToLatest) and registers for dropping a new database. */
  freshDatabase: (label: string) => Promise<FreshDatabase>;
  /** Runs a task in the Emmett worker process (its pg type parsers must not leak into ours). */
  emmett: <T>(task: EmmettTask) => Promise<T>;
  /** Progress lines (stderr), so stdout stays the report. */
  log: (message: string) => void;
};

export type Cell = string | number | null;
export type Table = { title: string; columns: string[]; rows: Cell[][]; notes?: string[] };
export type BenchReport = { tables: Table[]; notes?: string[]; data: unknown };

export type BenchModule = {
  name: string;
  description: string;
  run: (ctx: BenchContext) => Promise<BenchReport>;
};

export type EmmettTask =
  | { kind: 'append'; connectionString: string; concurrency: number; seconds: number; warmupSeconds: number; streamLength: number }
  | { kind: 'load'; connectionString: string; events: number; eventsPerStream: number; concurrency: number }
  | { kind: 'consume-processor'; connectionString: string; batchSize: number; pullingFrequencyInMs: number; table: string; limit: number }
  | { kind: 'consume-read-batch'; connectionString: string; batchSize: number; table: string; expected: number };

// ---------------------------------------------------------------------------------------------
// Measuring

export type LatencySummary = { count: number; p50Ms: number; p99Ms: number; maxMs: number; meanMs: number };

export function summarize(latenciesMs: number[]): LatencySummary {
  if (latenciesMs.length === 0) return { count: 0, p50Ms: NaN, p99Ms: NaN, maxMs: NaN, meanMs: NaN };
  const sorted = Float64Array.from(latenciesMs).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  let sum = 0;
  for (const v of sorted) sum += v;
  return { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted[sorted.length - 1]!, meanMs: sum / sorted.length };
}

export type ThroughputResult = LatencySummary & { opsPerSecond: number; elapsedSeconds: number; errors: number; firstError?: string };

/**
 * Runs `concurrency` closed-loop workers: first for `warmupSeconds` (not recorded), then for
 * `seconds`. Throughput = operations completed in the measured phase / its wall time (which ends
 * when the last in-flight operation finishes). Each worker gets its own state from `makeWorker`.
 */
export async function closedLoop(
  options: { concurrency: number; seconds: number; warmupSeconds: number },
  makeWorker: (worker: number) => () => Promise<void>,
): Promise<ThroughputResult> {
  const workers = Array.from({ length: options.concurrency }, (_, i) => makeWorker(i));
  let errors = 0;
  let firstError: string | undefined;
  const phase = async (seconds: number, record: number[] | null) => {
    const start = performance.now();
    const end = start + seconds * 1000;
    await Promise.all(
      workers.map(async (op) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          try {
            await op();
            record?.push(performance.now() - t0);
          } catch (error) {
            errors++;
            firstError ??= error instanceof Error ? error.message : String(error);
          }
        }
      }),
    );
    return (performance.now() - start) / 1000;
  };
  if (options.warmupSeconds > 0) await phase(options.warmupSeconds, null);
  errors = 0;
  const latencies: number[] = [];
  const elapsedSeconds = await phase(options.seconds, latencies);
  return { ...summarize(latencies), opsPerSecond: latencies.length / elapsedSeconds, elapsedSeconds, errors, firstError };
}

// ---------------------------------------------------------------------------------------------
// Payloads: one shape for every store, so only the store differs.

const FIRST = ['Adaeze', 'Chinedu', 'Folake', 'Ibrahim', 'Ngozi', 'Oluwaseun', 'Tunde', 'Zainab'];
const LAST = ['Okafor', 'Adeyemi', 'Bello', 'Eze', 'Ibrahim', 'Nwosu', 'Ogunleye', 'Suleiman'];
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');

export const BENCH_EVENT_TYPE = 'BenchMemberRegistered';

/** ~250 bytes of JSON, like a registration event. */
export function eventData(): Record<string, unknown> {
  const first = pick(FIRST);
  const last = pick(LAST);
  const n = digits(5);
  return {
    memberId: randomUUID(),
    username: `${first.toLowerCase()}${n}`,
    email: `${first.toLowerCase()}.${last.toLowerCase()}${n}@example.test`,
    firstName: first,
    lastName: last,
    phone: `+234${digits(10)}`,
    packageId: 1 + Math.floor(Math.random() * 5),
    sponsorId: randomUUID(),
    amountKobo: 1000 * Math.floor(Math.random() * 100_000),
  };
}

/** ~220 bytes of JSON, in the shape of our EventMetadata. */
export function eventMetadata(): {
  actor: { type: 'member'; id: string };
  now: string;
  request_id: string;
  correlation_id: string;
  causation_id: null;
  idempotency_key: string;
} {
  return {
    actor: { type: 'member', id: randomUUID() },
    now: new Date().toISOString(),
    // As the api names a request (a time-ordered id) and its events carry it as their correlation id.
    request_id: timeOrderedId(),
    correlation_id: timeOrderedId(),
    causation_id: null,
    idempotency_key: randomUUID(),
  };
}

/** Stream ids look like ours and give Emmett a stream type ("member"). */
export const newStreamId = () => `member-${randomUUID()}`;

/**
 * Per-writer stream cursor: the first append creates a stream (expected version 0), the next
 * `streamLength - 1` append to it at the version the writer last saw, then a new stream starts.
 * Writers never share streams, so no run measures concurrency conflicts.
 */
export function streamCursor(streamLength: number) {
  let streamId = newStreamId();
  let version = 0;
  return {
    next(): { streamId: string; expectedVersion: number } {
      if (version >= streamLength) {
        streamId = newStreamId();
        version = 0;
      }
      return { streamId, expectedVersion: version };
    },
    committed() {
      version++;
    },
  };
}

/** Streams have this many events in the append benchmark: 1 in 5 appends creates a stream. */
export const APPEND_STREAM_LENGTH = 5;

// ---------------------------------------------------------------------------------------------
// The projection every consumer benchmark applies: per-stream event counter, one set-based
// statement per batch.

export function counterTableSql(table: string): string {
  return `create table ${table} (stream_id text primary key, events integer not null, last_global_position bigint not null)`;
}

/** $1 text[] stream ids, $2 bigint[] global positions (one element per event). */
export function counterUpsertSql(table: string): string {
  return `insert into ${table} (stream_id, events, last_global_position)
    select stream_id, count(*), max(gp) from unnest($1::text[], $2::bigint[]) as t(stream_id, gp) group by stream_id
    on conflict (stream_id) do update set events = ${table}.events + excluded.events,
      last_global_position = greatest(${table}.last_global_position, excluded.last_global_position)`;
}

export type DrainMeasurement = {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  batches: number;
  batchP50Ms: number;
  batchP99Ms: number;
  /** Sum of the projection's counters afterwards: must equal `events`. */
  projected: number;
};

// ---------------------------------------------------------------------------------------------
// Formatting

export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
export const fmtMs = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : 'n/a');
export const fmtRatio = (a: number, b: number) => (Number.isFinite(a / b) && b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');
