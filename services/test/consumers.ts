import { expect } from 'vitest';
import { consumers as workerConsumers } from '../src/consumers';
import { type Consumer, type DrainResult, drainConsumer } from '../src/core/consumers';
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

/** drainConsumer, after waiting until every event appended so far can be seen. */
export async function drainAll(db: Db, consumer: Consumer): Promise<DrainResult> {
  await untilLogVisible(db);
  return drainConsumer(db, consumer);
}

/**
 * The worker's part, done in the test: every consumer drained, in passes until one applies
 * nothing (a policy's events reach the consumers listed before it). Each drain must catch up.
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
    if (applied === 0) return;
  }
  throw new Error('consumers did not settle');
}
