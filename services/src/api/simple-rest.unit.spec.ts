import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseListRequest } from './simple-rest';

const resource = { columns: { id: { sql: sql`id`, type: 'text' as const } }, defaultSort: ['id', 'ASC'] as ['id', 'ASC'] };

describe('the ra-data-simple-rest list parameters', () => {
  it('answers a getList the page its range asks for: [20,44] is 25 rows from the 21st', () => {
    expect(parseListRequest({ range: '[20,44]' }, resource)).toMatchObject({ offset: 20, limit: 25 });
  });

  it('answers a getMany (filter={"id":[...]}, no range) with every record it names, not a first page of 10', () => {
    const ids = Array.from({ length: 30 }, (_, i) => `id-${i}`);
    expect(parseListRequest({ filter: JSON.stringify({ id: ids }) }, resource)).toMatchObject({ offset: 0, limit: 500 });
  });

  it('never answers more than 500 rows at once, whatever the range', () => {
    expect(parseListRequest({ range: '[0,9999]' }, resource).limit).toBe(500);
  });
});
