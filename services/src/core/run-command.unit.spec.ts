import { describe, expect, it } from 'vitest';
import { type CommandContext, type CommandRun, runCommand } from './command';
import { ConcurrencyConflict } from './errors';

/** A context whose transactions hand the unit a marker executor: only runCommand's choices are under test. */
function fakeContext(): { ctx: CommandContext } {
  const trx = { isTransaction: true };
  const db = { isTransaction: false, transaction: () => ({ execute: <T>(work: (t: unknown) => Promise<T>) => work(trx) }) };
  return { ctx: { db, onCommitted: () => undefined } as unknown as CommandContext };
}

/** A unit that loses its append the first `losses` times, recording how each attempt ran. */
function unit(stream: string, losses: number, runs: CommandRun['locked'][]) {
  let lost = 0;
  return async (run: CommandRun) => {
    runs.push(run.locked);
    if (lost < losses) {
      lost++;
      throw new ConcurrencyConflict(stream, 1, 2);
    }
    return 'done';
  };
}

describe('runCommand under contention', () => {
  it('Given a stream that just lost an append, When its next command runs, Then it takes the lock with its read from the first attempt', async () => {
    const { ctx } = fakeContext();
    const first: boolean[] = [];
    expect(await runCommand(ctx, unit('wallet-busy', 1, first), { lockOnRetry: true, stream: 'wallet-busy' })).toBe('done');
    // Optimistic first, then the locked retry.
    expect(first).toEqual([false, true]);

    const next: boolean[] = [];
    await runCommand(ctx, unit('wallet-busy', 0, next), { lockOnRetry: true, stream: 'wallet-busy' });
    expect(next).toEqual([true]);
  });

  it('Given a quiet stream, or a unit that names none, When it runs, Then its first attempt is optimistic', async () => {
    const { ctx } = fakeContext();
    await runCommand(ctx, unit('wallet-noisy', 1, []), { lockOnRetry: true, stream: 'wallet-noisy' });
    const quiet: boolean[] = [];
    await runCommand(ctx, unit('wallet-quiet', 0, quiet), { lockOnRetry: true, stream: 'wallet-quiet' });
    expect(quiet).toEqual([false]);
    const unnamed: boolean[] = [];
    await runCommand(ctx, unit('wallet-noisy', 0, unnamed), { lockOnRetry: true });
    expect(unnamed).toEqual([false]);
  });

  it('Given a unit without lockOnRetry, When it loses an append, Then every attempt stays optimistic and the conflict surfaces after the last', async () => {
    const { ctx } = fakeContext();
    const runs: boolean[] = [];
    await expect(runCommand(ctx, unit('profile-x', 9, runs), { stream: 'profile-x', attempts: 3 })).rejects.toBeInstanceOf(ConcurrencyConflict);
    expect(runs).toEqual([false, false, false]);
  });
});
