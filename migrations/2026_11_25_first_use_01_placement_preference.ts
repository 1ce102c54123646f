import { type Kysely, sql } from 'kysely';

/** A member's placement preference for spillover (docs/placement.md); null means the company default. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table members add column placement_preference text
      check (placement_preference in ('balanced', 'extreme_left', 'extreme_right', 'weaker_leg'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table members drop column placement_preference`.execute(db);
}
