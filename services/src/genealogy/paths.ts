import type { PlacementLeg } from '../membership/events';

/**
 * A member's place in the binary placement tree is the bit string of legs from the top of its
 * tree: '0' = left, '1' = right; the top is ''. PostgreSQL orders `bit varying` like these
 * strings compare in JavaScript: bit by bit, a prefix before its extensions. So a member's whole
 * downline is one contiguous range in a btree on the path, in pre-order (each member followed by
 * its left leg, then its right leg). docs/genealogy.md.
 */
export const legBit = (leg: PlacementLeg): '0' | '1' => (leg === 'left' ? '0' : '1');
export const bitLeg = (bit: string): PlacementLeg => (bit === '0' ? 'left' : 'right');

/**
 * The smallest path after every path that starts with `path`, or null when there is none (the
 * top, or a path of right legs only). Descendants of P are exactly the paths Q with
 * P < Q < successor(P).
 */
export function pathSuccessor(path: string): string | null {
  const lastLeft = path.lastIndexOf('0');
  return lastLeft === -1 ? null : `${path.slice(0, lastLeft)}1`;
}

/** The bounds of a member's downline on the path index: strictly after `after`, strictly before `before` (if any). */
export function downlineRange(path: string): { after: string; before: string | null } {
  return { after: path, before: pathSuccessor(path) };
}
