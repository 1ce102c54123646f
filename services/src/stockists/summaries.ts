import { sql } from 'kysely';
import type { Executor } from '../core/db';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What the member lists and profile reads show of a member's stockist record (seed 001 §3.11). */
export type StockistSummary = { stockist_package_name: string | null; stockist_status: 'pending' | 'approved' | 'disapproved' | null; stockist_created_at: string | null };
const noStockist: StockistSummary = { stockist_package_name: null, stockist_status: null, stockist_created_at: null };

/**
 * Each member's stockist record: the approved one, else the latest application (a disapproved member
 * may apply again), as the admin members list reads it; its date is the approval's, else the
 * application's. Members without a record get nulls.
 */
export async function stockistSummaries(db: Executor, memberIds: readonly string[]): Promise<Map<string, StockistSummary>> {
  const found = new Map<string, StockistSummary>(memberIds.map((id) => [id, noStockist]));
  if (memberIds.length === 0) return found;
  const rows = await db
    .selectFrom('stockists as s')
    .innerJoin('stockist_packages as p', 'p.id', 's.package_id')
    .select(['s.member_id', 's.status', 's.created_at', 's.approved_at', 'p.name'])
    .where('s.member_id', 'in', [...memberIds])
    .orderBy('s.member_id')
    .orderBy(sql`(s.status = 'approved')`, 'desc')
    .orderBy('s.created_at', 'desc')
    .execute();
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.member_id)) continue;
    seen.add(r.member_id);
    found.set(r.member_id, { stockist_package_name: r.name, stockist_status: r.status, stockist_created_at: iso(r.approved_at ?? r.created_at) });
  }
  return found;
}
