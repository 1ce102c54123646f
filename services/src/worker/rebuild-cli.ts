import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { loadConfig } from '../core/config';
import { createDb } from '../core/db';
import { compareWithLive, discardRebuild } from '../core/rebuild';
import { type ReadModel, findReadModel, readModels, rebuildReadModel } from '../read-models';

/**
 * `npm run rebuild -- <name|all>`: rebuilds read models from the log and swaps them in under live
 * traffic (docs/consumer-runner.md). `--list` lists them; `--check` rebuilds beside the live
 * tables, compares row for row and swaps nothing (exit 1 when they differ).
 */
const usage = `Usage: npm run rebuild -- <name|all> [--check]
       npm run rebuild -- --list

  <name|all>  the read model to rebuild (see --list), or all of them
  --check     rebuild beside the live tables and compare row for row; change nothing
  --list      list the read models, their tables and the events they read`;

/**
 * DATABASE_URL, or else the embedded PostgreSQL a development `npm start` runs (infra/src/start.ts:
 * port EMBEDDED_PG_PORT or 5433, database portal, its password in .data/postgres), or else the default.
 */
function databaseUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const credentials = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../.data/postgres/embedded-credentials.json');
  if (existsSync(credentials)) {
    const { user, password } = JSON.parse(readFileSync(credentials, 'utf8')) as { user: string; password: string };
    process.stderr.write('DATABASE_URL is not set: using the embedded PostgreSQL of npm start (.data/postgres).\n');
    return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${Number(process.env.EMBEDDED_PG_PORT ?? 5433)}/portal`;
  }
  return loadConfig(process.env).DATABASE_URL;
}

function list(out: NodeJS.WriteStream): void {
  const width = Math.max(...readModels.map((m) => m.name.length));
  for (const model of readModels) {
    out.write(`${model.name.padEnd(width)}  ${model.kind.padEnd(10)}  ${model.tables.join(', ')}\n`);
    out.write(`${' '.repeat(width)}  ${model.description}\n`);
    out.write(`${' '.repeat(width)}  reads ${model.eventTypes.length === 0 ? 'every event type' : `${model.eventTypes.length} event types: ${model.eventTypes.join(', ')}`}\n`);
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { list: { type: 'boolean' }, check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (values.list) {
    list(process.stdout);
    return 0;
  }
  const [target] = positionals;
  if (!target || positionals.length > 1) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const models: ReadModel[] = target === 'all' ? [...readModels] : [findReadModel(target)].filter((m): m is ReadModel => m !== undefined);
  if (models.length === 0) {
    process.stderr.write(`No read model is called "${target}". The read models: ${readModels.map((m) => m.name).join(', ')}, or all.\n`);
    return 2;
  }

  const db = createDb(databaseUrl(), { max: 4, applicationName: 'rebuild-cli' });
  // A bar per read model in a terminal; one line per read model when the output is a file or a pipe.
  const tty = process.stderr.isTTY === true;
  const bars = tty
    ? new cliProgress.MultiBar({ format: ' {name} |{bar}| {percentage}% {value}/{total} events {status}', hideCursor: true, clearOnComplete: false, stopOnComplete: false }, cliProgress.Presets.shades_classic)
    : null;
  const width = Math.max(...models.map((m) => m.name.length));
  let differing = 0;
  try {
    for (const model of models) {
      const bar = bars ? bars.create(1, 0, { name: model.name.padEnd(width), status: '' }) : null;
      const result = await rebuildReadModel(db, model, {
        swap: !values.check,
        onProgress: ({ applied, total }) => {
          bar?.setTotal(Math.max(total, applied, 1));
          bar?.update(applied);
        },
        onLockBusy: (attempt) => {
          if (attempt === 1) bar?.update({ status: '(waiting for commands writing these tables)' });
        },
      });
      let status: string;
      if (values.check) {
        const differences = await compareWithLive(db, result.schema, model.tables);
        await discardRebuild(db, model.name, { inline: model.kind !== 'projection' });
        if (differences.length) differing++;
        status = differences.length
          ? `DIFFERS: ${differences.map((d) => `${d.table} (${d.onlyLive} rows only live, ${d.onlyRebuilt} only rebuilt)`).join('; ')}`
          : 'equal to the live tables';
      } else if (result.swapped) {
        const changed = result.swapped.filter((s) => s.removed || s.added);
        status = changed.length ? `swapped in; corrected ${changed.map((s) => `${s.table}: ${s.removed} rows replaced or removed, ${s.added} written`).join('; ')}` : 'swapped in; the live tables were already right';
      } else {
        status = 'swapped in';
      }
      if (bar) {
        bar.setTotal(Math.max(result.applied, 1));
        bar.update(Math.max(result.applied, 1), { status });
      }
      if (!bars) process.stdout.write(`${model.name.padEnd(width)}  ${result.applied} events  ${status}\n`);
    }
  } finally {
    bars?.stop();
    await db.destroy();
  }
  return differing > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`rebuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
