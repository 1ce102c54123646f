import { sql } from 'kysely';
import type { Db } from '../src/core/db';
import { walletLedgerProjection } from '../src/compensation/projections';
import { drainConsumer } from '../src/core/consumers';

/**
 * The wallet ledger's set-based reference for the bulk-run benchmarks (matching, profit sharing):
 * the bonus events after `afterPosition` projected straight from the log into `table` (a copy of
 * wallet_entries, emptied first) by INSERT … SELECT, in keyset batches of the ledger's batch size.
 * Returns the seconds it took.
 */
export async function projectLedgerSetBased(db: Db, table: string, afterPosition: number): Promise<number> {
  await sql`create table if not exists ${sql.table(table)} (like wallet_entries including all)`.execute(db);
  await sql`truncate ${sql.table(table)}`.execute(db);
  const batch = walletLedgerProjection.batchSize ?? 500;
  const started = performance.now();
  for (let after = afterPosition; ; ) {
    const { rows } = await sql<{ last: number | null; n: number }>`
      with batch as (
        select * from events where global_position > ${after} and type in ('BonusCredited', 'BonusWithheld')
        order by global_position limit ${batch}
      ), inserted as (
        insert into ${sql.table(table)} (global_position, member_id, entry, kind, amount, generation, reason, cause_event_id, cause_type, cause_member_id, inputs, recorded_at)
        select global_position, (data->>'beneficiary_id')::uuid, case when type = 'BonusCredited' then 'credited' else 'withheld' end, data->>'kind',
               (data->>'amount_kobo')::bigint, (data->>'generation')::int, data->>'reason', (data->'cause'->>'event_id')::uuid, data->'cause'->>'event_type',
               (data->'cause'->>'member_id')::uuid, data->'inputs', recorded_at
        from batch
        returning global_position
      )
      select max(global_position)::bigint as last, count(*)::int as n from inserted`.execute(db);
    if (!rows[0] || rows[0].n === 0 || rows[0].last === null) break;
    after = Number(rows[0].last);
  }
  return (performance.now() - started) / 1000;
}

/**
 * The wallet ledger and its set-based reference measured again, `rounds` times alternately, on the
 * same database (median of each): a run of a few hundred milliseconds is at the mercy of a shared
 * machine, and alternating puts both under the same load. Each round projects the whole log's
 * wallet events from scratch (wallet_entries and wallets emptied, the checkpoint back at the start;
 * the benches' logs hold no other wallet events than their runs'); the reference copies the same
 * bonus events. Leaves the ledger as projected.
 */
export async function ledgerAgainstReference(db: Db, table: string, rounds = 3): Promise<{ oursSeconds: number; referenceSeconds: number; rows: number }> {
  const ours: number[] = [];
  const reference: number[] = [];
  let rows = 0;
  for (let round = 0; round < rounds; round++) {
    await sql`truncate wallet_entries, wallets`.execute(db);
    await sql`update consumer_checkpoints set last_transaction_id = '0', last_global_position = 0 where name = ${walletLedgerProjection.name}`.execute(db);
    const started = performance.now();
    const result = await drainConsumer(db, walletLedgerProjection);
    if (result.status !== 'caught_up') throw new Error(`wallet-ledger: ${result.status} ${result.error ?? ''}`);
    ours.push((performance.now() - started) / 1000);
    rows = (await sql<{ n: number }>`select count(*)::int as n from wallet_entries`.execute(db)).rows[0]!.n;
    reference.push(await projectLedgerSetBased(db, table, 0));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { oursSeconds: median(ours), referenceSeconds: median(reference), rows };
}

/** How many alternating rounds ledgerAgainstReference runs (BENCH_LEDGER_ROUNDS, 3 by default). */
export function ledgerRounds(): number {
  const rounds = Number(process.env.BENCH_LEDGER_ROUNDS ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_LEDGER_ROUNDS: not a whole number of rounds: ${process.env.BENCH_LEDGER_ROUNDS}`);
  return rounds;
}
