import pg from 'pg';

/**
 * Preloaded into a process the bench forks (`--import`): counts the statements its pg clients send,
 * by their first words, and answers the counts when the parent asks over IPC ('statement-counts').
 * A count per command does not move with the machine's load, unlike the timings beside it.
 */
const counts = new Map<string, number>();
const shape = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 70);
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  if (text) counts.set(shape(text), (counts.get(shape(text)) ?? 0) + 1);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

process.on('message', (message) => {
  if (message === 'statement-counts') process.send?.({ statementCounts: Object.fromEntries(counts) });
});
