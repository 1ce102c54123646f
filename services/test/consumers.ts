import { expect } from 'vitest';
import { consumers as workerConsumers } from '../src/consumers';
import { type Consumer, type DrainResult, consumerLag, drainConsumer } from '../src/core/consumers';
import type { Db } from '../src/core/db';
import { logEndTransaction, logEndVisible } from '../src/core/event-store';

/**
 * Waits until every event appended so far is below the readers' horizon. A drain stops at the
 * horizon and calls that "caught up": a mail job's transaction that began before the last command
 * and is still running (slow on a loaded machine) would otherwise make a test read stale tables.
 */
export async function untilLogVisible(db: Db, timeoutMs = 20_000): Promise<void> {
  const end = await logEndTransaction(db);
  const deadline = Date.now() + timeoutMs;
  while (!(await logEndVisible(db, end))) {
    if (Date.now() > deadline) throw new Error(`the log's end (transaction ${end}) stayed beyond the horizon for ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Events of the consumer's types committed after its checkpoint, whatever the horizon. */
async function behind(db: Db, consumer: Consumer): Promise<number> {
  return (await consumerLag(db, [consumer]))[0]!.behind;
}

/**
 * drainConsumer until the consumer has applied every event of its types committed so far. One
 * drain after untilLogVisible is not always enough: the horizon is computed again by the drain,
 * and a transaction of this database that began meanwhile (the mail sweep) or another database's
 * transaction caught in the sampling race (docs/consumer-runner.md "The horizon") may hold it back
 * for a moment; the runner then rightly reads nothing yet, so the test waits for its checkpoint.
 */
export async function drainAll(db: Db, consumer: Consumer, timeoutMs = 20_000): Promise<DrainResult> {
  await untilLogVisible(db);
  const deadline = Date.now() + timeoutMs;
  let applied = 0;
  const appended = new Set<string>();
  for (;;) {
    const result = await drainConsumer(db, consumer);
    applied += result.applied;
    for (const type of result.appended) appended.add(type);
    if (result.status !== 'caught_up') return { ...result, applied, appended: [...appended] };
    const left = await behind(db, consumer);
    if (left === 0) return { ...result, applied, appended: [...appended] };
    if (Date.now() > deadline) throw new Error(`consumer ${consumer.name} is still ${left} events behind after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The worker's part, done in the test: every consumer drained, in passes until one applies
 * nothing (a policy's events reach the consumers listed before it) and none is behind the log.
 * Each drain must catch up.
 */
export async function settleConsumers(db: Db, consumers: readonly Consumer[] = workerConsumers, maxPasses = 20): Promise<void> {
  for (let pass = 0; pass < maxPasses; pass++) {
    await untilLogVisible(db);
    let applied = 0;
    for (const consumer of consumers) {
      const result = await drainConsumer(db, consumer);
      expect(result.status, `consumer ${consumer.name}: ${result.error ?? ''}`).toBe('caught_up');
      applied += result.applied;
    }
    if (applied > 0) continue;
    const lagging = (await consumerLag(db, consumers)).filter((lag) => lag.behind > 0);
    if (lagging.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('consumers did not settle');
}
