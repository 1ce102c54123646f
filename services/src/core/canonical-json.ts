import canonicalize from 'canonicalize';

/**
 * Canonical JSON (RFC 8785), the text every event hash is taken over (core/event-store.ts), the
 * same text as the `canonicalize` package gives, ~5–10× faster: the value is copied with its keys
 * inserted in sorted order (UTF-16 code units, as RFC 8785 and `canonicalize` sort them) and
 * serialised by JSON.stringify, whose strings and numbers are RFC 8785's (it is defined on
 * ECMAScript's). One exception JSON.stringify cannot honour: a key that is an array index ("0",
 * "17") is always written first, in numeric order, whatever the insertion order; a value holding
 * such a key goes to `canonicalize`. `canonical-json.unit.spec.ts` checks the two agree on
 * arbitrary JSON. Appends hash every event's data, and a rank cascade's one event is ~1.3 MB.
 */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(sortedCopy(value)) ?? 'undefined';
  } catch (error) {
    if (error !== INDEX_KEY) throw error;
    return canonicalize(value) ?? 'undefined';
  }
}

const INDEX_KEY = Symbol('array-index key');
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    // As canonicalize: a number JSON cannot hold is an error, not a silent null.
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`canonical JSON cannot hold ${value}`);
    return value;
  }
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return sortedCopy(withToJson.toJSON());
  if (Array.isArray(value)) return value.map((item) => (item === undefined || typeof item === 'symbol' ? null : sortedCopy(item)));
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source).sort();
  // No prototype: a "__proto__" key stays an ordinary key.
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of keys) {
    if (ARRAY_INDEX.test(key)) throw INDEX_KEY;
    const item = source[key];
    if (item === undefined || typeof item === 'symbol') continue;
    sorted[key] = sortedCopy(item);
  }
  return sorted;
}
