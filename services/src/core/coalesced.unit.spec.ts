import { describe, expect, it } from 'vitest';
import { coalesced } from './wakeups';

describe('coalesced rings', () => {
  it('rings at once, then once more after the running ring for every call that came meanwhile', async () => {
    const started: number[] = [];
    const finishers: Array<() => void> = [];
    const ring = coalesced(() => {
      started.push(started.length);
      return new Promise<void>((resolve) => finishers.push(resolve));
    });
    const first = ring();
    const calls = [ring(), ring(), ring()];
    expect(started).toHaveLength(1);
    finishers[0]!();
    await first;
    // The three calls made during the first ring share one ring that starts after it.
    await expect.poll(() => started.length).toBe(2);
    finishers[1]!();
    await Promise.all(calls);
    expect(started).toHaveLength(2);
    // Idle again: the next call rings at once.
    const later = ring();
    expect(started).toHaveLength(3);
    finishers[2]!();
    await later;
  });

  it('rings again after a failed ring', async () => {
    let attempts = 0;
    let fail: (error: Error) => void = () => {};
    const ring = coalesced(() => {
      attempts++;
      return attempts === 1 ? new Promise<void>((_, reject) => (fail = reject)) : Promise.resolve();
    });
    const first = ring().catch((error: Error) => error.message);
    const second = ring();
    fail(new Error('redis down'));
    expect(await first).toBe('redis down');
    await second;
    expect(attempts).toBe(2);
  });
});
