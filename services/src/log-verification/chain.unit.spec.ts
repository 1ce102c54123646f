import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, eventHash } from '../core/event-store';
import { type BrokenLink, type ChainEvent, type ChainState, chainStart, checkLink } from './chain';

/** Streams of events chained exactly as the event store writes them. */
function chained(streams: Array<{ id: string; datas: number[] }>): ChainEvent[] {
  return streams
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .flatMap(({ id, datas }) => {
      let prevHash = GENESIS_HASH;
      return datas.map((n, index) => {
        const base = { streamId: id, streamPosition: index + 1, type: 'Noted', schemaVersion: 1, data: { n }, metadata: { actor: { type: 'system', id: 'test' } }, recordedAt: '2026-11-25T10:00:00.000Z', eventId: `${id}-${index}`, prevHash };
        const event = { ...base, hash: eventHash(base) };
        prevHash = event.hash;
        return event;
      });
    });
}

function verify(events: ChainEvent[]): BrokenLink[] {
  let state: ChainState = chainStart;
  const problems: BrokenLink[] = [];
  for (const event of events) {
    const result = checkLink(state, event);
    state = result.state;
    problems.push(...result.problems);
  }
  return problems;
}

const streamsArbitrary = fc.uniqueArray(fc.record({ id: fc.stringMatching(/^[a-z]{1,6}-[0-9]{1,3}$/), datas: fc.array(fc.integer(), { minLength: 1, maxLength: 6 }) }), { minLength: 1, maxLength: 6, selector: (s) => s.id });

describe('checkLink: the hash-chain rules', () => {
  it('finds nothing wrong in a log written by the rules', () => {
    fc.assert(
      fc.property(streamsArbitrary, (streams) => {
        expect(verify(chained(streams))).toEqual([]);
      }),
    );
  });

  it('names an edited event by its stream and position, with the hash it should have', () => {
    fc.assert(
      fc.property(streamsArbitrary, fc.nat(), (streams, pick) => {
        const events = chained(streams);
        const index = pick % events.length;
        const original = events[index]!;
        events[index] = { ...original, data: { n: 'edited' } };
        const problems = verify(events);
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatchObject({ kind: 'content', stream_id: original.streamId, stream_position: original.streamPosition, expected: original.hash });
      }),
    );
  });

  it('names the gap a removed event leaves, and the broken link after it', () => {
    fc.assert(
      fc.property(streamsArbitrary.filter((streams) => streams.some((s) => s.datas.length >= 2)), fc.nat(), (streams, pick) => {
        const events = chained(streams);
        // A removed event that is not a stream's last (a cut-off tail is for the anchors to find).
        const removable = events.map((e, i) => ({ e, i })).filter(({ i }) => events[i + 1]?.streamId === events[i]!.streamId);
        const { e: removed, i } = removable[pick % removable.length]!;
        events.splice(i, 1);
        const kinds = verify(events).map((p) => [p.kind, p.stream_id, p.stream_position]);
        expect(kinds).toEqual([
          ['gap', removed.streamId, removed.streamPosition + 1],
          ['link', removed.streamId, removed.streamPosition + 1],
        ]);
      }),
    );
  });
});
