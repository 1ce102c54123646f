import { GENESIS_HASH, type HashedContent, eventHash } from '../core/event-store';

/**
 * The rules of the log's hash chains (docs/event-store.md "Tamper evidence"), as a pure fold over
 * the events of the whole log in (stream_id, stream_position) order: each stream starts at
 * position 1 linked to GENESIS_HASH, each event links to its predecessor's hash, and each event's
 * content hashes to its own hash.
 */
export type ChainEvent = HashedContent & { hash: string };

export type BrokenLink = {
  stream_id: string;
  stream_position: number;
  kind: 'content' | 'link' | 'gap' | 'truncated';
  /** In words, for the screen: what is wrong. */
  problem: string;
  expected: string;
  found: string;
};

/** Where the fold stands: the last event seen (its stream's head so far). */
export type ChainState = { last: { streamId: string; streamPosition: number; hash: string } | null };
export const chainStart: ChainState = { last: null };

/** Checks one event against the one before it in the fold; answers the problems it shows. */
export function checkLink(state: ChainState, event: ChainEvent): { state: ChainState; problems: BrokenLink[] } {
  const prior = state.last?.streamId === event.streamId ? state.last : null;
  const expectedPosition = prior ? prior.streamPosition + 1 : 1;
  const expectedPrev = prior ? prior.hash : GENESIS_HASH;
  const at = { stream_id: event.streamId, stream_position: event.streamPosition };
  const problems: BrokenLink[] = [];
  if (event.streamPosition !== expectedPosition) {
    problems.push({
      ...at,
      kind: 'gap',
      problem: prior ? `Position ${expectedPosition} is missing: the event after position ${prior.streamPosition} is at ${event.streamPosition}.` : `The stream does not start at position 1.`,
      expected: `position ${expectedPosition}`,
      found: `position ${event.streamPosition}`,
    });
  }
  if (event.prevHash !== expectedPrev) {
    problems.push({
      ...at,
      kind: 'link',
      problem: prior ? `The event does not link to position ${prior.streamPosition}: its prev_hash is not that event's hash.` : 'The first event of the stream does not link to the genesis hash.',
      expected: expectedPrev,
      found: event.prevHash,
    });
  }
  const recomputed = eventHash(event);
  if (recomputed !== event.hash) {
    problems.push({
      ...at,
      kind: 'content',
      problem: 'The event was changed after it was written: its content no longer matches its hash.',
      expected: event.hash,
      found: recomputed,
    });
  }
  return { state: { last: { streamId: event.streamId, streamPosition: event.streamPosition, hash: event.hash } }, problems };
}
