import type { DomainEvent } from '../core/event-store';

/** Catalogue events. Money in kobo. One stream per entry: `package-<id>`, `rank-<id>`. */
export type PackageDefined = DomainEvent<
  'PackageDefined',
  {
    package_id: number;
    name: string;
    point_value: number;
    registration_value_kobo: number;
    pickup_amount_kobo: number;
    matching_bonus_cap_kobo: number;
  }
>;

export type RankDefined = DomainEvent<
  'RankDefined',
  {
    rank_id: number;
    name: string;
    points: number;
    is_global_profit_eligible: boolean;
    description: string;
    package_id: number;
  }
>;

export type CatalogueEvent = PackageDefined | RankDefined;

export const packageStream = (id: number) => `package-${id}`;
export const rankStream = (id: number) => `rank-${id}`;
