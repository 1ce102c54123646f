import type { Selectable } from 'kysely';
import type { CompanyBank, Incentive, Product, ProductService, Rank, RegistrationPackage, ServiceProvider, StockistPackage } from '../contracts/catalogue';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import type { CompanyBanksTable, PackagesTable, ProductsTable, ServiceProvidersTable, StockistPackagesTable } from '../database';

/** Reads of the catalogue tables, shaped for the API (naira at the edge). */

// ---- registration packages ----

export function packageToApi(row: Selectable<PackagesTable>): RegistrationPackage {
  return {
    id: row.id,
    name: row.name,
    point_value: row.point_value,
    registration_value: koboToNaira(row.registration_value),
    pickup_amount: koboToNaira(row.pickup_amount),
    matching_bonus_cap: koboToNaira(row.matching_bonus_cap),
  };
}

export async function findPackage(db: Executor, id: number) {
  return db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listPackages(db: Executor) {
  return db.selectFrom('packages').selectAll().orderBy('id').execute();
}

// ---- ranks ----

function ranksQuery(db: Executor) {
  return db
    .selectFrom('ranks')
    .leftJoin('packages', 'packages.id', 'ranks.package_id')
    .select(['ranks.id', 'ranks.name', 'ranks.points', 'ranks.is_global_profit_eligible', 'ranks.description', 'ranks.package_id', 'packages.name as package_name']);
}

type RankRow = Awaited<ReturnType<ReturnType<typeof ranksQuery>['executeTakeFirstOrThrow']>>;

function rankToApi(row: RankRow): Rank {
  return {
    id: row.id,
    name: row.name,
    points: row.points,
    is_global_profit_eligible: row.is_global_profit_eligible ? 1 : 0,
    description: row.description,
    package: row.package_id,
    package_id: row.package_id,
    package_name: row.package_name,
  };
}

export async function listRanks(db: Executor): Promise<Rank[]> {
  return (await ranksQuery(db).orderBy('ranks.points').orderBy('ranks.id').execute()).map(rankToApi);
}

export async function findRank(db: Executor, id: number): Promise<Rank | undefined> {
  const row = await ranksQuery(db).where('ranks.id', '=', id).executeTakeFirst();
  return row && rankToApi(row);
}

/** A rank's badge is its incentive's image. */
export async function findRankBadge(db: Executor, id: number) {
  return db
    .selectFrom('ranks')
    .leftJoin('incentives', 'incentives.rank_id', 'ranks.id')
    .select(['ranks.id', 'ranks.name', 'ranks.points', 'incentives.file_path'])
    .where('ranks.id', '=', id)
    .executeTakeFirst();
}

// ---- incentives ----

function incentivesQuery(db: Executor) {
  return db
    .selectFrom('incentives')
    .innerJoin('ranks', 'ranks.id', 'incentives.rank_id')
    .select(['incentives.id', 'ranks.name', 'ranks.points', 'incentives.incentive', 'incentives.worth', 'incentives.file_path', 'incentives.rank_id']);
}

type IncentiveRow = Awaited<ReturnType<ReturnType<typeof incentivesQuery>['executeTakeFirstOrThrow']>>;

const incentiveToApi = (row: IncentiveRow): Incentive => ({ ...row, worth: koboToNaira(row.worth) });

export async function listIncentives(db: Executor): Promise<Incentive[]> {
  return (await incentivesQuery(db).orderBy('ranks.points').orderBy('incentives.id').execute()).map(incentiveToApi);
}

export async function findIncentive(db: Executor, id: number): Promise<Incentive | undefined> {
  const row = await incentivesQuery(db).where('incentives.id', '=', id).executeTakeFirst();
  return row && incentiveToApi(row);
}

// ---- company banks ----

export const companyBankToApi = (row: Selectable<CompanyBanksTable>): CompanyBank => ({
  id: row.id,
  bank_name: row.bank_name,
  bank_account_name: row.bank_account_name,
  bank_account_number: row.bank_account_number,
});

export async function listCompanyBanks(db: Executor): Promise<CompanyBank[]> {
  return (await db.selectFrom('company_banks').selectAll().orderBy('id').execute()).map(companyBankToApi);
}

export async function findCompanyBank(db: Executor, id: number): Promise<CompanyBank | undefined> {
  const row = await db.selectFrom('company_banks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && companyBankToApi(row);
}

// ---- stockist packages ----

export const stockistPackageToApi = (row: Selectable<StockistPackagesTable>): StockistPackage => ({
  id: row.id,
  name: row.name,
  registration_value: koboToNaira(row.registration_value),
  sales_bonus_percentage: row.sales_bonus_percentage,
  pickup_amount: koboToNaira(row.pickup_amount),
  point_value: row.point_value,
  value: row.value,
});

export async function listStockistPackages(db: Executor): Promise<StockistPackage[]> {
  return (await db.selectFrom('stockist_packages').selectAll().orderBy('value').orderBy('id').execute()).map(stockistPackageToApi);
}

export async function findStockistPackage(db: Executor, id: number): Promise<StockistPackage | undefined> {
  const row = await db.selectFrom('stockist_packages').selectAll().where('id', '=', id).executeTakeFirst();
  return row && stockistPackageToApi(row);
}

// ---- products ----

export const productToApi = (row: Selectable<ProductsTable>): Product => ({
  id: row.id,
  name: row.name,
  description: row.description,
  image: row.image,
  worth: koboToNaira(row.worth),
  is_active: row.is_active,
  points: row.points,
});

export async function listProducts(db: Executor, options: { activeOnly: boolean }): Promise<Product[]> {
  let query = db.selectFrom('products').selectAll().orderBy('id');
  // Members see only what they can order: a product left at ₦0 (before prices had a floor) waits for its price.
  if (options.activeOnly) query = query.where('is_active', '=', true).where('worth', '>', 0);
  return (await query.execute()).map(productToApi);
}

export async function findProduct(db: Executor, id: number): Promise<Product | undefined> {
  const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
  return row && productToApi(row);
}

// ---- service providers and product services ----

const serviceProviderToApi = (row: Selectable<ServiceProvidersTable>): ServiceProvider => ({ id: row.id, name: row.name, code: row.code, is_active: row.is_active });

export async function listServiceProviders(db: Executor): Promise<ServiceProvider[]> {
  return (await db.selectFrom('service_providers').selectAll().orderBy('name').execute()).map(serviceProviderToApi);
}

export async function findServiceProvider(db: Executor, id: number): Promise<ServiceProvider | undefined> {
  const row = await db.selectFrom('service_providers').selectAll().where('id', '=', id).executeTakeFirst();
  return row && serviceProviderToApi(row);
}

function productServicesQuery(db: Executor) {
  return db
    .selectFrom('product_services')
    .leftJoin('service_providers', 'service_providers.id', 'product_services.service_provider_id')
    .select([
      'product_services.id',
      'product_services.service_provider_id',
      'service_providers.name as service_provider_name',
      'product_services.service',
      'product_services.name',
      'product_services.amount',
      'product_services.is_active',
    ]);
}

type ProductServiceRow = Awaited<ReturnType<ReturnType<typeof productServicesQuery>['executeTakeFirstOrThrow']>>;

const productServiceToApi = (row: ProductServiceRow): ProductService => ({ ...row, amount: koboToNaira(row.amount) });

/** Every product service, or only the active ones of one kind of service (airtime, data...). */
export async function listProductServices(db: Executor, options: { service?: string } = {}): Promise<ProductService[]> {
  let query = productServicesQuery(db).orderBy('product_services.service').orderBy('product_services.amount').orderBy('product_services.id');
  if (options.service !== undefined) {
    query = query.where('product_services.service', '=', options.service).where('product_services.is_active', '=', true).where('service_providers.is_active', '=', true);
  }
  return (await query.execute()).map(productServiceToApi);
}

export async function findProductService(db: Executor, id: number): Promise<ProductService | undefined> {
  const row = await productServicesQuery(db).where('product_services.id', '=', id).executeTakeFirst();
  return row && productServiceToApi(row);
}
