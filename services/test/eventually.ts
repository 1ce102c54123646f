import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls until `ready` holds (eventual conditions, e.g. other test files' transactions holding a
 * reader back; no timing claims), and fails naming what it waited for and the last value seen.
 */
export async function eventually<T>(probe: () => Promise<T>, ready: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ready(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)})`);
    await sleep(20);
  }
}
