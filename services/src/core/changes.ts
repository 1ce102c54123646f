/**
 * What an edit changes: the requested fields whose value differs from the current one, and those
 * fields' current values. Fields left out of the request (undefined) are not part of the edit.
 * Update events record both, so the log answers "who changed what, from what, to what".
 */
export function changedFields<Fields extends Record<string, unknown>>(
  current: Partial<Fields>,
  requested: Partial<Fields>,
): { changes: Partial<Fields>; previous: Partial<Fields>; changed: boolean } {
  const changes: Partial<Fields> = {};
  const previous: Partial<Fields> = {};
  for (const key of Object.keys(requested) as Array<keyof Fields>) {
    const value = requested[key];
    if (value === undefined || sameValue(current[key], value)) continue;
    changes[key] = value;
    // A field never set before has no previous value (kept out rather than stored as undefined).
    if (current[key] !== undefined) previous[key] = current[key];
  }
  return { changes, previous, changed: Object.keys(changes).length > 0 };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Arrays and objects (rare in settings) compare by content.
  return typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);
}
