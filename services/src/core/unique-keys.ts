import { sql } from 'kysely';
import type { Executor } from './db';

/**
 * Uniqueness across streams (usernames, e-mails, placement slots, payment references): a small
 * keyed table written in the same transaction as the append, so both commit or neither does.
 */
export async function reserveKey(db: Executor, scope: string, key: string, owner: string): Promise<boolean> {
  const { rows } = await sql`
    insert into unique_keys (scope, key, owner) values (${scope}, ${key}, ${owner})
    on conflict do nothing returning key`.execute(db);
  return rows.length === 1;
}

export async function keyOwner(db: Executor, scope: string, key: string): Promise<string | null> {
  const { rows } = await sql<{ owner: string }>`select owner from unique_keys where scope = ${scope} and key = ${key}`.execute(db);
  return rows[0]?.owner ?? null;
}

export async function releaseKey(db: Executor, scope: string, key: string, owner: string): Promise<void> {
  await sql`delete from unique_keys where scope = ${scope} and key = ${key} and owner = ${owner}`.execute(db);
}

/** Gives back every key of these scopes an owner holds (an order declined frees its allowance). */
export async function releaseKeysOwnedBy(db: Executor, scopes: readonly string[], owner: string): Promise<void> {
  await sql`delete from unique_keys where scope = any(${sql.val(scopes)}::text[]) and owner = ${owner}`.execute(db);
}
