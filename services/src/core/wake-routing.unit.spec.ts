import { describe, expect, it } from 'vitest';
import type { DrainResult } from './consumers';
import { coalesced, consumersReading, drainWhileHeld } from './wakeups';

const consumers = [
  { name: 'ledger', eventTypes: ['WithdrawalRequested', 'BonusCredited'] },
  { name: 'tree', eventTypes: ['MemberRegistered'] },
  { name: 'everything', eventTypes: undefined },
];

describe('which consumers a commit wakes', () => {
  it('those reading an appended type and those reading every type', () => {
    expect(consumersReading(consumers, new Set(['WithdrawalRequested']))).toEqual(['ledger', 'everything']);
    expect(consumersReading(consumers, ['MemberRegistered', 'BonusCredited'])).toEqual(['ledger', 'tree', 'everything']);
  });

  it('all of them when what was appended is unknown, none when nothing was', () => {
    expect(consumersReading(consumers, undefined)).toEqual(['ledger', 'tree', 'everything']);
    expect(consumersReading(consumers, new Set())).toEqual([]);
  });
});

describe('coalesced rings with items', () => {
  it('the ring after the running one names every item asked for meanwhile', async () => {
    const rung: string[][] = [];
    const finishers: Array<() => void> = [];
    const ring = coalesced<string>((items) => {
      rung.push(items);
      return new Promise<void>((resolve) => finishers.push(resolve));
    });
    const first = ring(['a']);
    const calls = [ring(['b']), ring(['c', 'b']), ring([])];
    expect(rung).toEqual([['a']]);
    finishers[0]!();
    await first;
    await expect.poll(() => rung.length).toBe(2);
    expect(rung[1]!.sort()).toEqual(['b', 'c']);
    finishers[1]!();
    await Promise.all(calls);
    // Idle again: the next call rings at once with its own items only.
    const later = ring(['d']);
    expect(rung[2]).toEqual(['d']);
    finishers[2]!();
    await later;
  });
});

const drained = (held: boolean, applied = 0, appended: string[] = []): DrainResult => ({ applied, status: 'caught_up', appended, held });

describe('draining while the horizon holds an event back', () => {
  it('drains again until nothing it reads is held, summing what it applied and appended', async () => {
    const results = [drained(true, 2, ['A']), drained(true, 0), drained(false, 1, ['B'])];
    const waits: number[] = [];
    const result = await drainWhileHeld(async () => results.shift()!, { sleep: async (ms) => void waits.push(ms) });
    expect(results).toEqual([]);
    expect(result).toMatchObject({ status: 'caught_up', held: false, applied: 3 });
    expect(result.appended.sort()).toEqual(['A', 'B']);
    expect(waits).toHaveLength(2);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
  });

  it('drains once when nothing is held, or when busy (another process drains it)', async () => {
    let calls = 0;
    await drainWhileHeld(async () => (calls++, drained(false)));
    expect(calls).toBe(1);
    await drainWhileHeld(async () => (calls++, { ...drained(true), status: 'busy' }));
    expect(calls).toBe(2);
  });

  it('between drains, looks with the cheap peek and drains again only once something is readable', async () => {
    const looks = [
      { readable: false, held: true },
      { readable: false, held: true },
      { readable: true, held: false },
    ];
    let drains = 0;
    const result = await drainWhileHeld(async () => (drains++, drains === 1 ? drained(true) : drained(false, 1)), {
      sleep: async () => undefined,
      peek: async () => looks.shift()!,
    });
    expect(looks).toEqual([]);
    expect(drains).toBe(2);
    expect(result).toMatchObject({ held: false, applied: 1 });
  });

  it('stops without draining when a look finds nothing readable and nothing held any more', async () => {
    let drains = 0;
    const result = await drainWhileHeld(async () => (drains++, drained(true, 2)), {
      sleep: async () => undefined,
      peek: async () => ({ readable: false, held: false }),
    });
    expect(drains).toBe(1);
    expect(result).toMatchObject({ status: 'caught_up', held: false, applied: 2 });
  });

  it('gives up after a while and leaves the rest to the sweep', async () => {
    let calls = 0;
    const result = await drainWhileHeld(async () => (calls++, drained(true)), { giveUpMs: 30, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) });
    expect(result.held).toBe(true);
    expect(calls).toBeGreaterThan(1);
  });
});
