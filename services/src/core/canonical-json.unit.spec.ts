import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

/** Every event hash is taken over this text: it must be exactly the `canonicalize` package's. */
describe('canonicalJson', () => {
  it('is the text canonicalize gives, for arbitrary JSON (unicode keys and strings, numbers of every size)', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(canonicalJson(value)).toBe(canonicalize(value));
    }), { numRuns: 2000 });
    fc.assert(fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
      expect(canonicalJson(value)).toBe(canonicalize(value));
    }), { numRuns: 2000 });
  });

  it('sorts keys that look like array indexes as RFC 8785 does, and keeps a "__proto__" key', () => {
    const value = { b: 1, 10: 'ten', 2: 'two', a: [{ z: 1, y: { 0: null, x: 1e21 } }], __proto_: 1, ['__proto__']: { c: 1 }, é: -0, e: 1.5e-7 };
    expect(canonicalJson(value)).toBe(canonicalize(value));
    const parsed = JSON.parse('{"__proto__": {"b": 2, "a": 1}, "k": [3, {"n": true}]}');
    expect(canonicalJson(parsed)).toBe(canonicalize(parsed));
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"a":1,"b":2},"k":[3,{"n":true}]}');
  });

  it('drops undefined members, writes undefined array items as null, and uses toJSON, as canonicalize does', () => {
    const value = { a: undefined, b: [undefined, 1], c: new Date('2026-11-26T07:00:00.000Z') };
    expect(canonicalJson(value)).toBe(canonicalize(value));
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
  });
});
