import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOrderedId } from './ids';

describe('timeOrderedId', () => {
  it('makes ids that sort in the order they were made, so each new event lands at the end of the event_id index', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId());
    expect(new Set(ids).size).toBe(ids.length);
    // PostgreSQL orders uuids by their bytes, which is the order of their lower-case hex text.
    expect([...ids].sort()).toEqual(ids);
  });

  it('makes RFC 9562 uuids that every uuid field of the api accepts', () => {
    const id = timeOrderedId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });
});
