import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalHashPieces } from './event-store';

/** The pieces the append_to_stream and append_event functions hash must put back together the exact text eventHash hashes. */
describe('canonicalHashPieces', () => {
  it('rebuilds the canonical JSON of the event around the previous hash and the position', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.jsonValue(),
        fc.jsonValue(),
        fc.stringMatching(/^[0-9a-f]{64}$/),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.uuid(),
        fc.date({ noInvalidDate: true }),
        (streamId, type, data, metadata, prevHash, streamPosition, eventId, when) => {
          const recordedAt = when.toISOString();
          const event = { streamId, type, schemaVersion: 1, data, metadata, recordedAt, eventId };
          const { head, middle, tail } = canonicalHashPieces(event);
          const whole = canonicalize({
            prev_hash: prevHash,
            stream_id: streamId,
            stream_position: streamPosition,
            type,
            schema_version: 1,
            data,
            metadata,
            recorded_at: recordedAt,
            event_id: eventId,
          });
          expect(head + prevHash + middle + String(streamPosition) + tail).toBe(whole);
          // append_event (one event) builds the head itself around the canonical data and metadata it is sent.
          expect(`{"data":${canonicalize(data)},"event_id":"${eventId}","metadata":${canonicalize(metadata)},"prev_hash":"`).toBe(head);
        },
      ),
    );
  });
});
