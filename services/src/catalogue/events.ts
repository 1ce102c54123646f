import type { DomainEvent } from '../core/event-store';

/**
 * Catalogue events. Money in kobo. One stream per entry: `package-<id>`, `rank-<id>`,
 * `incentive-<id>`, `company-bank-<id>`, `stockist-package-<id>`, `product-<id>`,
 * `service-provider-<id>`, `product-service-<id>`.
 *
 * Every kind of entry has the same life (decider.ts): `<Kind>Defined` once with all its fields,
 * then `<Kind>Updated` naming only the fields that changed, with their previous values (the admin
 * who changed them is the event's metadata.actor), and for company banks `CompanyBankRemoved`.
 */
export type EntryEvents<Prefix extends string, IdField extends string, Fields> =
  | DomainEvent<`${Prefix}Defined`, { [K in IdField]: number } & Fields>
  | DomainEvent<`${Prefix}Updated`, { [K in IdField]: number } & { changes: Partial<Fields>; previous: Partial<Fields> }>
  | DomainEvent<`${Prefix}Removed`, { [K in IdField]: number }>;

export type PackageFields = {
  name: string;
  point_value: number;
  registration_value_kobo: number;
  pickup_amount_kobo: number;
  matching_bonus_cap_kobo: number;
};

export type RankFields = {
  name: string;
  points: number;
  is_global_profit_eligible: boolean;
  description: string;
  /** The minimum registration package a member needs to hold the rank. */
  package_id: number;
};

export type IncentiveFields = { rank_id: number; incentive: string; worth_kobo: number; file_path: string | null };

export type CompanyBankFields = { bank_name: string; bank_account_name: string; bank_account_number: string };

export type StockistPackageFields = {
  name: string;
  registration_value_kobo: number;
  sales_bonus_percentage: number;
  pickup_amount_kobo: number;
  point_value: number;
  value: number;
};

export type ProductFields = { name: string; description: string; image: string | null; worth_kobo: number; points: number; is_active: boolean };

export type ServiceProviderFields = { name: string; code: string; is_active: boolean };

export type ProductServiceFields = { service_provider_id: number; service: string; name: string; amount_kobo: number; is_active: boolean };

export type PackageEvent = EntryEvents<'Package', 'package_id', PackageFields>;
export type RankEvent = EntryEvents<'Rank', 'rank_id', RankFields>;
export type IncentiveEvent = EntryEvents<'Incentive', 'incentive_id', IncentiveFields>;
export type CompanyBankEvent = EntryEvents<'CompanyBank', 'bank_id', CompanyBankFields>;
export type StockistPackageEvent = EntryEvents<'StockistPackage', 'stockist_package_id', StockistPackageFields>;
export type ProductEvent = EntryEvents<'Product', 'product_id', ProductFields>;
export type ServiceProviderEvent = EntryEvents<'ServiceProvider', 'service_provider_id', ServiceProviderFields>;
export type ProductServiceEvent = EntryEvents<'ProductService', 'product_service_id', ProductServiceFields>;

export type PackageDefined = Extract<PackageEvent, { type: 'PackageDefined' }>;
export type RankDefined = Extract<RankEvent, { type: 'RankDefined' }>;

export type CatalogueEvent =
  | PackageEvent
  | RankEvent
  | IncentiveEvent
  | CompanyBankEvent
  | StockistPackageEvent
  | ProductEvent
  | ServiceProviderEvent
  | ProductServiceEvent;

export const packageStream = (id: number) => `package-${id}`;
export const rankStream = (id: number) => `rank-${id}`;
