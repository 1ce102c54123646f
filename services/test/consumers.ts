import { expect } from 'vitest';
import { consumers as workerConsumers } from '../src/consumers';
import { type Consumer, drainConsumer } from '../src/core/consumers';
import type { Db } from '../src/core/db';

/**
 * The worker's part, done in the test: every consumer drained, in passes until one applies
 * nothing (a policy's events reach the consumers listed before it). Each drain must catch up.
 */
export async function settleConsumers(db: Db, consumers: readonly Consumer[] = workerConsumers, maxPasses = 20): Promise<void> {
  for (let pass = 0; pass < maxPasses; pass++) {
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
