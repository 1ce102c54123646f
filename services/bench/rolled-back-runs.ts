import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../src/database';

class RolledBack extends Error {}

/**
 * The profilers' loop: `repeat` runs of `body`, each after a vacuum of `vacuumTables` (so a run
 * does not pay for the dead rows of the one before) and inside a transaction rolled back after it
 * (the kept database never changes); `body` answers the milliseconds it measured, and the median
 * is printed last.
 */
export async function rolledBackRuns(
  db: Kysely<Database>,
  options: { repeat: number; vacuumTables: string },
  body: (trx: Transaction<Database>, run: number) => Promise<number>,
): Promise<void> {
  const times: number[] = [];
  for (let run = 0; run < options.repeat; run++) {
    await sql.raw(`vacuum ${options.vacuumTables}`).execute(db);
    await db
      .transaction()
      .execute(async (trx) => {
        times.push(await body(trx, run));
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  }
  times.sort((a, b) => a - b);
  console.log(`median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms over ${times.length}`);
}
