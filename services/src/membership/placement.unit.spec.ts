import { describe, expect, it } from 'vitest';
import { directLeg, weakerLeg } from './placement';

const even = { left: 0, right: 0 };
describe('directLeg: the leg taken under a placement with a free one', () => {
  it('takes left then right, and nothing when both are taken (spillover)', () => {
    expect(directLeg([], 'balanced', even)).toBe('left');
    expect(directLeg(['left'], 'balanced', even)).toBe('right');
    expect(directLeg(['right'], 'extreme_left', even)).toBe('left');
    expect(directLeg(['left', 'right'], 'balanced', even)).toBeNull();
  });
  it('extreme right prefers right; weaker leg prefers the lower volume, left on a tie', () => {
    expect(directLeg([], 'extreme_right', even)).toBe('right');
    expect(directLeg(['right'], 'extreme_right', even)).toBe('left');
    expect(directLeg([], 'weaker_leg', { left: 5, right: 2 })).toBe('right');
    expect(directLeg([], 'weaker_leg', even)).toBe('left');
    expect(weakerLeg({ left: 1, right: 3 })).toBe('left');
  });
});
