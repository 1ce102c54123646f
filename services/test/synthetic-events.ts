import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../src/core/event-store';

/**
 * Recorded events for property tests of projections: each at the next log position (its own
 * transaction), `minute` minutes after a fixed start, so generated sequences can put times out of
 * order while the log order stays the generation order.
 */
export function syntheticLog(start = Date.parse('2026-03-01T00:00:00Z')) {
  let position = 0;
  return function recorded(type: string, data: Record<string, unknown>, minute: number): RecordedEvent {
    position += 1;
    const at = new Date(start + minute * 60_000).toISOString();
    return {
      type, data, streamId: `test-${position}`, streamPosition: 1, globalPosition: position, transactionId: String(1000 + position), eventId: randomUUID(), schemaVersion: 1,
      metadata: { actor: { type: 'system', id: 'test' }, now: at }, recordedAt: at, prevHash: '', hash: '',
    };
  };
}
