import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { runInTransaction } from '../core/command';
import type { Executor } from '../core/db';
import { appendToStream } from '../core/event-store';
import { countAppendedEvents } from './event-counts';

/**
 * /metrics' events_appended_total counts incrementally (event-counts.ts): a scrape reads the events
 * appended since the last one, not the whole log, and an event committed late by a slower
 * transaction is counted at a later scrape, never skipped nor counted twice.
 */
let t: TestApp;

async function append(db: Executor, type: string, n: number) {
  await appendToStream(db, `counted-${crypto.randomUUID()}`, Array.from({ length: n }, (_, i) => ({ type, data: { i } })), {
    expectedVersion: 0,
    metadata: { actor: { type: 'system', id: 'test' }, now: new Date().toISOString() },
  });
}
const appendCommitted = (type: string, n: number) => runInTransaction(t.runtime.commands, (trx) => append(trx, type, n));
const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;

beforeAll(async () => {
  t = await createTestApp({ consumers: [] });
}, 60_000);
afterAll(async () => t?.close());

describe('events_appended_total', () => {
  it('counts the events of each type, and grows by what was appended between scrapes', async () => {
    await appendCommitted('CountedOnce', 3);
    expect(await scrape()).toContain('events_appended_total{type="CountedOnce"} 3');
    await appendCommitted('CountedOnce', 2);
    expect(await scrape()).toContain('events_appended_total{type="CountedOnce"} 5');
  });

  it('reads only the events appended since the last scrape, not the whole log again', async () => {
    await appendCommitted('CountedIncrementally', 1);
    expect((await countAppendedEvents(t.runtime.db)).get('CountedIncrementally')).toBe(1);
    // Were the whole log counted again, this planted figure would be replaced by 3.
    await sql`update event_type_counts set appended = 1000 where type = 'CountedIncrementally'`.execute(t.runtime.db);
    await appendCommitted('CountedIncrementally', 2);
    expect((await countAppendedEvents(t.runtime.db)).get('CountedIncrementally')).toBe(1002);
    expect((await countAppendedEvents(t.runtime.db)).get('CountedIncrementally')).toBe(1002);
  });

  it('counts an event a slower transaction commits late, once', async () => {
    let commitSlow!: () => void;
    const slowMayCommit = new Promise<void>((resolve) => (commitSlow = resolve));
    let slowAppended!: () => void;
    const slowHasAppended = new Promise<void>((resolve) => (slowAppended = resolve));
    const slow = t.runtime.db.transaction().execute(async (trx) => {
      await append(trx, 'CountedLate', 1);
      slowAppended();
      await slowMayCommit;
    });
    await slowHasAppended;
    // A later transaction commits first: it sits above the slow one's horizon and waits with it.
    await appendCommitted('CountedLate', 2);
    expect((await countAppendedEvents(t.runtime.db)).get('CountedLate') ?? 0).toBe(0);
    commitSlow();
    await slow;
    expect((await countAppendedEvents(t.runtime.db)).get('CountedLate')).toBe(3);
    expect((await countAppendedEvents(t.runtime.db)).get('CountedLate')).toBe(3);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from events where type = 'CountedLate'`.execute(t.runtime.db);
    expect(rows[0]!.n).toBe(3);
  });
});
