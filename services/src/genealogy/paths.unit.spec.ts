import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downlineRange, pathSuccessor } from './paths';

const bits = (maxLength: number) => fc.array(fc.constantFrom('0', '1'), { maxLength }).map((a) => a.join(''));

describe('placement paths', () => {
  it('a downline is exactly the open range (path, successor): every descendant inside, nothing else', () => {
    fc.assert(
      // Half the time q extends p, so descendants are tried as often as strangers.
      fc.property(bits(12), bits(6), bits(12), fc.boolean(), (p, suffix, other, extend) => {
        const q = extend ? p + suffix : other;
        const { after, before } = downlineRange(p);
        const inRange = q > after && (before === null || q < before);
        expect(inRange).toBe(q.startsWith(p) && q !== p);
      }),
      { numRuns: 5000 },
    );
  });

  it('the top and an all-right path have no successor (their range is open-ended)', () => {
    expect(pathSuccessor('')).toBeNull();
    expect(pathSuccessor('111')).toBeNull();
    expect(pathSuccessor('0')).toBe('1');
    expect(pathSuccessor('0110')).toBe('0111');
    expect(pathSuccessor('1011')).toBe('11');
  });
});
