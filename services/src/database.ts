import type { ColumnType, Generated } from 'kysely';

/**
 * The database's tables as kysely sees them (STYLE.md 17). Read tables belong to their capability;
 * this file only composes them.
 */
export type EventsTable = {
  global_position: Generated<number>;
  transaction_id: Generated<string>;
  stream_id: string;
  stream_position: number;
  type: string;
  schema_version: Generated<number>;
  data: unknown;
  metadata: unknown;
  recorded_at: Date;
  event_id: string;
  prev_hash: string;
  hash: string;
};

export type ConsumerCheckpointsTable = {
  name: string;
  last_transaction_id: ColumnType<string, unknown, unknown>;
  last_global_position: Generated<number>;
  events_applied: ColumnType<number, unknown, unknown>;
  status: Generated<string>;
  failed_global_position: number | null;
  error: string | null;
  updated_at: ColumnType<Date, unknown, unknown>;
};

export type UniqueKeysTable = { scope: string; key: string; owner: string; created_at: Generated<Date> };

export type IdempotentRequestsTable = {
  key: string;
  fingerprint: string;
  status_code: number;
  body: unknown;
  created_at: Generated<Date>;
};

export type MembersTable = {
  id: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  package_id: number;
  reg_package_id: number;
  sponsor_id: string | null;
  placement_parent_id: string | null;
  placement_leg: 'left' | 'right' | null;
  is_root: Generated<boolean>;
  email_verified_at: Date | null;
  enable_2fa: Generated<boolean>;
  activated_at: Date | null;
  deactivated: Generated<boolean>;
  is_stockist: Generated<boolean>;
  withdrawal_amount: Generated<number>;
  personal_pv: Generated<number>;
  registration_expires_at: Date | null;
  registration_expired_at: Date | null;
  /** docs/placement.md; null: the company default. Migration 2026_11_25_first_use_01. */
  placement_preference: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Date;
  /** Where the registration, the activation and the current package entered the log (xid8 as text, position). */
  registered_xid: string | null;
  registered_position: number | null;
  activated_xid: string | null;
  activated_position: number | null;
  package_xid: string | null;
  package_position: number | null;
  updated_at: Date;
};

export type PackagePaymentStatus = 'initiated' | 'pending' | 'approved' | 'declined' | 'amount_mismatch' | 'not_applied';
export type PackagePaymentsTable = {
  id: string;
  member_id: string;
  purpose: 'registration' | 'upgrade' | 'product_purchase' | 'stock_purchase';
  method: 'payment_gateway' | 'pop' | 'wallet';
  /** Null for a product purchase's payment (migration 13), which names its purchase instead. */
  package_id: number | null;
  purchase_id: ColumnType<string | null, string | null | undefined, string | null>;
  from_package_id: number | null;
  amount_due: number;
  amount_paid: number | null;
  reference: string | null;
  receipt_path: string | null;
  description: Generated<string>;
  status: PackagePaymentStatus;
  status_reason: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type AdminsTable = {
  id: string;
  name: string;
  email: string;
  role: 'admin' | 'finance';
  enable_2fa: Generated<boolean>;
  created_at: Date;
  updated_at: Date;
};

export type AccountKind = 'member' | 'admin';

export type CredentialsTable = { account_kind: AccountKind; account_id: string; password_hash: string; changed_at: Date };

export type OneTimeCodesTable = {
  id: Generated<number>;
  account_kind: AccountKind;
  account_id: string;
  purpose: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Generated<Date>;
};

export type MailOutboxTable = {
  id: Generated<number>;
  dedupe_key: string | null;
  category: string;
  recipient: string;
  subject: string;
  body_text: string | null;
  body_html: string | null;
  contains_secret: Generated<boolean>;
  created_at: Date;
  next_attempt_at: Date;
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Date | null;
  gave_up_at: Date | null;
};

export type SignInThrottlesTable = {
  key: string;
  failures: Generated<number>;
  window_started_at: Date;
  last_failure_at: Date | null;
  locked_until: Date | null;
};

export type SessionsTable = {
  id: string;
  account_kind: AccountKind;
  account_id: string;
  created_at: Date;
  last_seen_at: Date;
  ended_at: Date | null;
  end_reason: string | null;
  ip: string | null;
  user_agent: string | null;
};

export type PackagesTable = {
  id: number;
  name: string;
  point_value: number;
  registration_value: number;
  pickup_amount: number;
  matching_bonus_cap: number;
  updated_at: Date;
};

export type RanksTable = {
  id: number;
  name: string;
  points: number;
  is_global_profit_eligible: boolean;
  description: string;
  package_id: number;
  updated_at: Date;
};

export type SettingsTable = { id: Generated<number>; values: unknown; updated_at: Date };

/** Catalogue read tables (services/src/catalogue/); money columns in kobo. */
export type IncentivesTable = { id: number; rank_id: number; incentive: string; worth: number; file_path: string | null; updated_at: Date };
export type CompanyBanksTable = { id: number; bank_name: string; bank_account_name: string; bank_account_number: string; updated_at: Date };
export type StockistPackagesTable = {
  id: number;
  name: string;
  registration_value: number;
  sales_bonus_percentage: number;
  pickup_amount: number;
  point_value: number;
  value: number;
  updated_at: Date;
};
export type ProductsTable = { id: number; name: string; description: string; image: string | null; worth: number; points: number; is_active: boolean; updated_at: Date };
export type ServiceProvidersTable = { id: number; name: string; code: string; is_active: boolean; updated_at: Date };
export type ProductServicesTable = { id: number; service_provider_id: number; service: string; name: string; amount: number; is_active: boolean; updated_at: Date };
/** services/src/settings/bonus-tables.ts: generations 1..10 as a JSON array of percentages. */
export type BonusGenerationTablesTable = { kind: 'referral' | 'upgrade' | 'unilevel' | 'stockist-upline'; package_id: number; percentages: ColumnType<number[], string, string>; updated_at: Date };

export type DailyRegistrationsTable = { day: string; package_id: number; registrations: Generated<number>; activations: Generated<number> };

/** Genealogy read tables (services/src/genealogy/, docs/genealogy.md): written by its projection only. */
export type GenealogyNodesTable = {
  member_id: string;
  tree_root_id: string;
  /** Placement legs from the top of the tree as a bit string, '0' = left, '1' = right. */
  path: string;
  /** length(path), generated by the database. */
  depth: ColumnType<number, never, never>;
  placement_parent_id: string | null;
  placement_leg: 'left' | 'right' | null;
  sponsor_id: string | null;
  sponsor_chain: ColumnType<string[], string[] | string, string[] | string>;
  sponsor_depth: number;
  registered_position: number;
};
export type GenealogyCountsTable = {
  member_id: string;
  downline_count: Generated<number>;
  left_count: Generated<number>;
  right_count: Generated<number>;
  direct_count: Generated<number>;
};

/** The member's profile and withdrawal bank account (services/src/profile/). */
export type MemberProfilesTable = {
  member_id: string;
  photo_path: string | null;
  address: string | null;
  gender: 'male' | 'female' | null;
  profile_submitted_at: Date | null;
  bank_name: string | null;
  bank_code: string | null;
  bank_account_number: string | null;
  bank_account_name: string | null;
  bank_details_changed_at: Date | null;
  bank_editable: Generated<boolean>;
  created_at: Date;
  updated_at: Date;
};

export type WalletEntriesTable = {
  global_position: number;
  member_id: string;
  entry: 'credited' | 'withheld' | 'held';
  kind: string;
  amount: number;
  generation: number | null;
  reason: string | null;
  cause_event_id: string;
  cause_type: string;
  cause_member_id: string | null;
  inputs: unknown;
  recorded_at: Date;
  /** A credited or withheld line that settles a held bonus (the held line shares its key). */
  settles_hold: Generated<boolean>;
  /** A held line once its payment was decided. */
  resolution: ColumnType<'credited' | 'withheld' | null, 'credited' | 'withheld' | null | undefined, 'credited' | 'withheld' | null>;
};

/** Credited bonuses per company (Lagos) day and kind: the wallet ledger adds each line's amount as it writes the line. */
export type DailyBonusTotalsTable = { day: string; kind: string; credited_kobo: number; credited_count: number };

/** A read table's rows that a dashboard sums, per company (Lagos) day and key (core/daily-totals.ts). */
export type DailyTotalsTable = { day: string; key: string; n: number; amount: number };

export type WalletsTable = {
  member_id: string;
  total_bonus: Generated<number>;
  total_withheld: Generated<number>;
  total_withdrawn: Generated<number>;
  total_spent: Generated<number>;
  balance: Generated<number>;
  total_held: Generated<number>;
  updated_at: Date;
};

/** The compensation policy's held bonuses (docs/money-as-of-cause.md), until their payment is decided. */
export type HeldBonusesTable = {
  bonus_key: string;
  beneficiary_id: string;
  payment_id: string | null;
  decision: unknown;
  resolution: 'credited' | 'withheld' | null;
  resolved_by_event_id: string | null;
};

/** Each member's result in a closed matching cycle (paid, capped, or not qualified and carried). */
export type MatchingResultsTable = {
  cycle_end: ColumnType<string, string, string>;
  member_id: string;
  outcome: 'paid' | 'capped' | 'not_qualified';
  reason: string | null;
  left_pv: number;
  right_pv: number;
  pairs: number;
  credited_kobo: number;
  withheld_kobo: number;
  carried_left: number;
  carried_right: number;
};

/** A stream's fold up to `version` (core/snapshots.ts): a cache of the log, safe to delete. */
export type StreamSnapshotsTable = { stream_id: string; kind: string; version: number; state: unknown; updated_at: Generated<Date> };

/** Withdrawals and admin payouts (services/src/wallet/); money in kobo. */
export type WithdrawalStatus = 'pending' | 'processing' | 'successful' | 'failed';
export type WithdrawalsTable = {
  id: string;
  member_id: string;
  kind: 'withdrawal' | 'payout';
  automatic: Generated<boolean>;
  amount: number;
  fee: number;
  net_amount: number;
  status: WithdrawalStatus;
  reason: Generated<string>;
  bank_name: string;
  bank_code: string;
  account_number: string;
  account_name: string;
  transfer_reference: string;
  transfer_code: string | null;
  recipient_code: string | null;
  failure_reason: string | null;
  requested_by: string | null;
  created_at: Date;
  sent_at: Date | null;
  completed_at: Date | null;
  updated_at: Date;
};

/** Incentive claims (services/src/incentives/), projected inline from `incentive-claim-<id>`; worth in kobo. */
export type IncentiveClaimsTable = {
  id: string;
  member_id: string;
  rank_id: number;
  rank_name: string;
  incentive_id: number;
  incentive: string;
  worth: number;
  points: number;
  cpv: number;
  status: 'processing' | 'approved' | 'declined';
  decline_reason: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  claimed_position: number;
  updated_at: Date;
};

/** Points (services/src/points/): PV, CPV, cumulative leg volumes and the rank reached; written by the `points` policy. */
export type MemberPointsTable = {
  member_id: string;
  personal_pv: number;
  cpv: number;
  left_pv: number;
  right_pv: number;
  rank_id: number | null;
  rank_achieved_at: Date | null;
  updated_at: Date;
};

/** Product purchases (services/src/purchases/), projected inline from `purchase-<id>`; money in kobo. */
export type ProductPurchaseStatus = 'awaiting_payment' | 'pending' | 'processing' | 'approved' | 'declined';
export type ProductPurchasesTable = {
  id: string;
  member_id: string;
  pickup_type: 'registration_pickup' | 'upgrade_pickup' | 'repurchase_pickup';
  payment_method: 'payment_gateway' | 'pop' | 'wallet' | 'allowance';
  payment_id: string | null;
  total_price: number;
  total_points: number;
  total_quantity: number;
  status: ProductPurchaseStatus;
  status_reason: ColumnType<string | null, string | null | undefined, string | null>;
  paid_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Date;
  updated_at: Date;
  global_position: number;
  /** migration 2026_11_25_stockist_00: the order code, and the stockist (or admin) who handed the order over. */
  order_code: ColumnType<string | null, string | null | undefined, string | null>;
  stockist_id: ColumnType<string | null, string | null | undefined, string | null>;
  collected_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  collected_by: ColumnType<string | null, string | null | undefined, string | null>;
};
/** Stockists (services/src/stockists/); money in kobo. */
export type StockistsTable = {
  id: string;
  member_id: string;
  store_name: string;
  store_address: string;
  store_state: string;
  store_phone: string;
  package_id: number;
  signee_id: string;
  status: 'pending' | 'approved' | 'disapproved';
  payment_id: string;
  receipt_path: string | null;
  registration_value: number;
  created_at: Date;
  approved_at: Date | null;
  updated_at: Date;
  global_position: number;
};
export type StockistPaymentsTable = {
  id: string;
  stockist_id: string;
  member_id: string;
  kind: 'registration' | 'upgrade';
  package_id: number;
  from_package_id: number | null;
  amount: number;
  receipt_path: string | null;
  status: 'pending' | 'processing' | 'approved' | 'disapproved';
  created_at: Date;
  decided_at: Date | null;
  global_position: number;
};
export type StockPurchasesTable = {
  id: string;
  stockist_id: string;
  member_id: string;
  pickup_type: 'registration_pickup' | 'upgrade_pickup' | 're-stock';
  package_id: number;
  total_price: number;
  total_points: number;
  total_quantity: number;
  receipt_path: string | null;
  status: 'awaiting_payment' | 'processing' | 'approved' | 'declined';
  /** Paid by card: the payment (package_payments, purpose stock_purchase). */
  payment_id: ColumnType<string | null, string | null | undefined, string | null>;
  status_reason: string | null;
  created_at: Date;
  decided_at: Date | null;
  global_position: number;
};
export type StockPurchaseLinesTable = { purchase_id: string; product_id: number; name: string; qty: number; price: number; points: number };
export type StockistStockTable = { stockist_id: string; product_id: number; quantity: number; updated_at: Date };
/** Per-unit price (kobo) and points, as priced when the purchase was placed. */
export type ProductPurchaseLinesTable = { purchase_id: string; product_id: number; name: string; qty: number; price: number; points: number };

/** The matching bonus (services/src/matching/); dates are Lagos days, read them as `cycle_end::text`. */
export type MatchingCarryTable = {
  member_id: string;
  consumed_left: number;
  consumed_right: number;
  seen_left: number;
  seen_right: number;
  last_cycle_end: ColumnType<string, string, string>;
  updated_at: Date;
};
export type MatchingCyclesTable = {
  cycle_end: ColumnType<string, string, string>;
  frequency_days: number;
  total_pv: number;
  percent: ColumnType<string, number, number>;
  unit_point_value_kobo: number;
  closed_at: Date;
  paid_at: Date | null;
  members_matched: Generated<number>;
  pairs: Generated<number>;
  credited_kobo: Generated<number>;
  withheld_kobo: Generated<number>;
  members_capped: Generated<number>;
  members_not_qualified: Generated<number>;
  /** Who closed it: the schedule (system) or an admin. */
  closed_by: unknown;
};

export interface Database {
  held_bonuses: HeldBonusesTable;
  matching_results: MatchingResultsTable;
  matching_carry: MatchingCarryTable;
  matching_cycles: MatchingCyclesTable;
  product_purchases: ProductPurchasesTable;
  product_purchase_lines: ProductPurchaseLinesTable;
  stockists: StockistsTable;
  stockist_payments: StockistPaymentsTable;
  stock_purchases: StockPurchasesTable;
  stock_purchase_lines: StockPurchaseLinesTable;
  stockist_stock: StockistStockTable;
  member_points: MemberPointsTable;
  incentive_claims: IncentiveClaimsTable;
  withdrawals: WithdrawalsTable;
  genealogy_nodes: GenealogyNodesTable;
  genealogy_counts: GenealogyCountsTable;
  wallet_entries: WalletEntriesTable;
  daily_bonus_totals: DailyBonusTotalsTable;
  daily_payment_totals: DailyTotalsTable;
  daily_repurchase_totals: DailyTotalsTable;
  daily_member_totals: DailyTotalsTable;
  daily_withdrawal_totals: DailyTotalsTable;
  wallets: WalletsTable;
  daily_registrations: DailyRegistrationsTable;
  members: MembersTable;
  package_payments: PackagePaymentsTable;
  member_profiles: MemberProfilesTable;
  admins: AdminsTable;
  credentials: CredentialsTable;
  one_time_codes: OneTimeCodesTable;
  mail_outbox: MailOutboxTable;
  sign_in_throttles: SignInThrottlesTable;
  sessions: SessionsTable;
  packages: PackagesTable;
  ranks: RanksTable;
  settings: SettingsTable;
  incentives: IncentivesTable;
  company_banks: CompanyBanksTable;
  stockist_packages: StockistPackagesTable;
  products: ProductsTable;
  service_providers: ServiceProvidersTable;
  product_services: ProductServicesTable;
  bonus_generation_tables: BonusGenerationTablesTable;
  events: EventsTable;
  consumer_checkpoints: ConsumerCheckpointsTable;
  unique_keys: UniqueKeysTable;
  idempotent_requests: IdempotentRequestsTable;
  stream_snapshots: StreamSnapshotsTable;
}
