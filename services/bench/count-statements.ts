import pg from 'pg';

/**
 * Preloaded into a process the bench forks (`--import`): counts the statements its pg clients send,
 * by their first words, and the milliseconds from sending each to its answer (wall time: the
 * server's work, the round trip and any wait for a CPU), and answers both when the parent asks over
 * IPC ('statement-counts'). A count per command does not move with the machine's load, unlike the
 * timings beside it; the times rank the shapes.
 */
const counts = new Map<string, number>();
const millis = new Map<string, number>();
const shape = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 70);
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  const result = (query as (...a: unknown[]) => unknown).apply(this, args);
  if (text) {
    const key = shape(text);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const started = performance.now();
    const addTime = () => millis.set(key, (millis.get(key) ?? 0) + performance.now() - started);
    if (result instanceof Promise) result.then(addTime, addTime);
  }
  return result;
} as typeof pg.Client.prototype.query;

process.on('message', (message) => {
  if (message === 'statement-counts') process.send?.({ statementCounts: Object.fromEntries(counts), statementMillis: Object.fromEntries(millis) });
});
