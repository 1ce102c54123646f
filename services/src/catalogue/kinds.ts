import type {
  CompanyBankFields,
  IncentiveFields,
  PackageFields,
  ProductFields,
  ProductServiceFields,
  RankFields,
  ServiceProviderFields,
  StockistPackageFields,
} from './events';

export type EntryValue = string | number | boolean | null;
export type EntryFields = Record<string, EntryValue>;

export type CatalogueTable = 'packages' | 'ranks' | 'incentives' | 'company_banks' | 'stockist_packages' | 'products' | 'service_providers' | 'product_services';

/**
 * One kind of catalogue entry: its event names, stream, read table and messages. The decider,
 * the commands and the projection are written once for every kind (decider.ts, commands.ts,
 * projections.ts).
 */
export type CatalogueKind<Fields extends EntryFields = EntryFields> = {
  /** Event types `${prefix}Defined`, `${prefix}Updated`, `${prefix}Removed`. */
  prefix: string;
  /** The id's name in event data (`incentive_id`). */
  idField: string;
  /** Streams are `${streamPrefix}-${id}`. */
  streamPrefix: string;
  table: CatalogueTable;
  /** Event fields kept under another column name (money: `worth_kobo` in events, `worth` in kobo in the table). */
  columns: Partial<Record<keyof Fields & string, string>>;
  /** How people call it in messages: 'bank account'. */
  label: string;
  removable: boolean;
  /** Type-level only: ties the kind to the shape of its fields. */
  readonly fieldsType?: Fields;
};

const kind = <Fields extends EntryFields>(spec: CatalogueKind<Fields>): CatalogueKind<Fields> => spec;

export const catalogueKinds = {
  package: kind<PackageFields>({
    prefix: 'Package',
    idField: 'package_id',
    streamPrefix: 'package',
    table: 'packages',
    columns: { registration_value_kobo: 'registration_value', pickup_amount_kobo: 'pickup_amount', matching_bonus_cap_kobo: 'matching_bonus_cap' },
    label: 'package',
    removable: false,
  }),
  rank: kind<RankFields>({ prefix: 'Rank', idField: 'rank_id', streamPrefix: 'rank', table: 'ranks', columns: {}, label: 'rank', removable: false }),
  incentive: kind<IncentiveFields>({
    prefix: 'Incentive',
    idField: 'incentive_id',
    streamPrefix: 'incentive',
    table: 'incentives',
    columns: { worth_kobo: 'worth' },
    label: 'incentive',
    removable: false,
  }),
  companyBank: kind<CompanyBankFields>({
    prefix: 'CompanyBank',
    idField: 'bank_id',
    streamPrefix: 'company-bank',
    table: 'company_banks',
    columns: {},
    label: 'bank account',
    removable: true,
  }),
  stockistPackage: kind<StockistPackageFields>({
    prefix: 'StockistPackage',
    idField: 'stockist_package_id',
    streamPrefix: 'stockist-package',
    table: 'stockist_packages',
    columns: { registration_value_kobo: 'registration_value', pickup_amount_kobo: 'pickup_amount' },
    label: 'stockist package',
    removable: false,
  }),
  product: kind<ProductFields>({ prefix: 'Product', idField: 'product_id', streamPrefix: 'product', table: 'products', columns: { worth_kobo: 'worth' }, label: 'product', removable: false }),
  serviceProvider: kind<ServiceProviderFields>({
    prefix: 'ServiceProvider',
    idField: 'service_provider_id',
    streamPrefix: 'service-provider',
    table: 'service_providers',
    columns: {},
    label: 'service provider',
    removable: false,
  }),
  productService: kind<ProductServiceFields>({
    prefix: 'ProductService',
    idField: 'product_service_id',
    streamPrefix: 'product-service',
    table: 'product_services',
    columns: { amount_kobo: 'amount' },
    label: 'product service',
    removable: false,
  }),
};

export const entryStream = (kind: CatalogueKind<any>, id: number) => `${kind.streamPrefix}-${id}`;

/** 'Bank account not found.' */
export const notFoundMessage = (kind: CatalogueKind<any>) => `${kind.label.charAt(0).toUpperCase()}${kind.label.slice(1)} not found.`;

/** The kind an event belongs to, from its type (`IncentiveUpdated` → incentive). */
export function kindOfEvent(type: string): { kind: CatalogueKind; change: 'Defined' | 'Updated' | 'Removed' } | null {
  const match = /^(.+)(Defined|Updated|Removed)$/.exec(type);
  if (!match) return null;
  const kind = Object.values(catalogueKinds).find((k) => k.prefix === match[1]);
  return kind ? { kind: kind as unknown as CatalogueKind, change: match[2] as 'Defined' | 'Updated' | 'Removed' } : null;
}
