import { type RawBuilder, sql } from 'kysely';

/**
 * `<column> between <least> and <greatest>` of a batch's log positions (decision 81). A set-based
 * apply names its batch by positions (`unnest(positions)` or `= any(positions)`) and joins the log
 * by them; PostgreSQL guesses a hundred rows for the unnest and knows nothing of where the
 * positions lie, so on a large log it could scan or hash far more of `events` than the batch. This
 * bound, added to the join, lets the plan read the batch's stretch of the global_position index
 * only. A batch is in commit order, not position order: the bounds are the least and the greatest
 * (a late commit can widen the range a little; the join by position still picks the batch's own).
 */
export function batchRange(positions: readonly number[], column = 'global_position'): RawBuilder<boolean> {
  let least = Number.POSITIVE_INFINITY;
  let greatest = Number.NEGATIVE_INFINITY;
  for (const position of positions) {
    if (position < least) least = position;
    if (position > greatest) greatest = position;
  }
  // An empty batch matches nothing (the applies return before their statement anyway).
  if (positions.length === 0) return sql<boolean>`false`;
  return sql<boolean>`${sql.ref(column)} between ${least}::bigint and ${greatest}::bigint`;
}
