import { type Transaction, sql } from 'kysely';
import { catalogueMessages } from '../contracts/catalogue';
import { decideOnStream } from '../core/command';
import type { EventMetadata, RecordedEvent } from '../core/event-store';
import { RuleViolation } from '../core/errors';
import { releaseKey, reserveKey } from '../core/unique-keys';
import type { Database } from '../database';
import { entryDecider } from './decider';
import type { IncentiveFields, RankFields, ProductServiceFields } from './events';
import { type CatalogueKind, type EntryFields, catalogueKinds, entryStream } from './kinds';
import { projectCatalogue } from './projections';

type Trx = Transaction<Database>;

/**
 * Catalogue commands. Each runs inside the caller's `runInTransaction`: reads first, then the
 * append (the transaction's first write), then unique keys and the inline projection.
 */

const idScope = (kind: CatalogueKind<any>) => `${kind.streamPrefix}-id`;

/**
 * The next id of a kind. Creations of one kind take turns on a transaction-scoped advisory lock
 * (a lock is not a write, so the append stays the transaction's first write); every id taken is
 * kept in unique_keys, so the id of a removed entry (whose row is gone) is never given again.
 */
async function nextEntryId(trx: Trx, kind: CatalogueKind<any>): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtext(${idScope(kind)}))`.execute(trx);
  const { rows } = await sql<{ next: number }>`
    select greatest(
      (select coalesce(max(id), 0) from ${sql.table(kind.table)}),
      (select coalesce(max(key::integer), 0) from unique_keys where scope = ${idScope(kind)})
    ) + 1 as next`.execute(trx);
  return rows[0]!.next;
}

export async function defineEntry<Fields extends EntryFields>(trx: Trx, kind: CatalogueKind<Fields>, fields: Fields, metadata: EventMetadata): Promise<number> {
  const id = await nextEntryId(trx, kind);
  const stream = entryStream(kind, id);
  const { events } = await decideOnStream(trx, stream, entryDecider(kind), { type: 'Define', id, fields }, metadata);
  await reserveKey(trx, idScope(kind), String(id), stream);
  await projectCatalogue(trx, events);
  return id;
}

export async function updateEntry<Fields extends EntryFields>(trx: Trx, kind: CatalogueKind<Fields>, id: number, changes: Partial<Fields>, metadata: EventMetadata): Promise<RecordedEvent[]> {
  const { events } = await decideOnStream(trx, entryStream(kind, id), entryDecider(kind), { type: 'Update', id, changes }, metadata);
  await projectCatalogue(trx, events);
  return events;
}

export async function removeEntry(trx: Trx, kind: CatalogueKind<any>, id: number, metadata: EventMetadata): Promise<void> {
  const { events } = await decideOnStream(trx, entryStream(kind, id), entryDecider(kind), { type: 'Remove', id }, metadata);
  await projectCatalogue(trx, events);
}

// ---- kinds with rules across streams --------------------------------------------------------

async function requirePackage(trx: Trx, packageId: number | undefined): Promise<void> {
  if (packageId === undefined) return;
  const found = await trx.selectFrom('packages').select('id').where('id', '=', packageId).executeTakeFirst();
  if (!found) throw new RuleViolation(catalogueMessages.packageInvalid, 'package_id');
}

async function requireRank(trx: Trx, rankId: number | undefined): Promise<void> {
  if (rankId === undefined) return;
  const found = await trx.selectFrom('ranks').select('id').where('id', '=', rankId).executeTakeFirst();
  if (!found) throw new RuleViolation(catalogueMessages.rankInvalid, 'rank_id');
}

async function requireServiceProvider(trx: Trx, providerId: number | undefined): Promise<void> {
  if (providerId === undefined) return;
  const found = await trx.selectFrom('service_providers').select('id').where('id', '=', providerId).executeTakeFirst();
  if (!found) throw new RuleViolation(catalogueMessages.serviceProviderInvalid, 'service_provider_id');
}

/** A rank's minimum package must exist. */
export async function createRank(trx: Trx, fields: RankFields, metadata: EventMetadata): Promise<number> {
  await requirePackage(trx, fields.package_id);
  return defineEntry(trx, catalogueKinds.rank, fields, metadata);
}

export async function updateRank(trx: Trx, id: number, changes: Partial<RankFields>, metadata: EventMetadata): Promise<void> {
  await requirePackage(trx, changes.package_id);
  await updateEntry(trx, catalogueKinds.rank, id, changes, metadata);
}

/**
 * One incentive per rank (BUSINESS-RULES.md §3: a member's current incentive is the incentive of
 * the highest rank they hold), held as a unique key so two admins cannot both add one.
 */
const incentiveRankScope = 'incentive-rank';

export async function createIncentive(trx: Trx, fields: IncentiveFields, metadata: EventMetadata): Promise<number> {
  await requireRank(trx, fields.rank_id);
  const id = await defineEntry(trx, catalogueKinds.incentive, fields, metadata);
  if (!(await reserveKey(trx, incentiveRankScope, String(fields.rank_id), entryStream(catalogueKinds.incentive, id)))) {
    throw new RuleViolation(catalogueMessages.rankHasIncentive, 'rank_id');
  }
  return id;
}

export async function updateIncentive(trx: Trx, id: number, changes: Partial<IncentiveFields>, metadata: EventMetadata): Promise<void> {
  await requireRank(trx, changes.rank_id);
  const events = await updateEntry(trx, catalogueKinds.incentive, id, changes, metadata);
  for (const event of events) {
    const { changes: changed, previous } = event.data as { changes: Partial<IncentiveFields>; previous: Partial<IncentiveFields> };
    if (changed.rank_id === undefined) continue;
    const owner = entryStream(catalogueKinds.incentive, id);
    if (!(await reserveKey(trx, incentiveRankScope, String(changed.rank_id), owner))) throw new RuleViolation(catalogueMessages.rankHasIncentive, 'rank_id');
    await releaseKey(trx, incentiveRankScope, String(previous.rank_id), owner);
  }
}

/** A product service belongs to an existing service provider. */
export async function createProductService(trx: Trx, fields: ProductServiceFields, metadata: EventMetadata): Promise<number> {
  await requireServiceProvider(trx, fields.service_provider_id);
  return defineEntry(trx, catalogueKinds.productService, fields, metadata);
}

export async function updateProductService(trx: Trx, id: number, changes: Partial<ProductServiceFields>, metadata: EventMetadata): Promise<void> {
  await requireServiceProvider(trx, changes.service_provider_id);
  await updateEntry(trx, catalogueKinds.productService, id, changes, metadata);
}
