import type { Transaction } from 'kysely';
import { catalogueKinds } from './catalogue/kinds';
import { projectCatalogue } from './catalogue/projections';
import { consumers } from './consumers';
import type { Consumer } from './core/consumers';
import type { Db } from './core/db';
import type { RecordedEvent } from './core/event-store';
import { type InlineReadModel, type RebuildProgress, type SwapResult, rebuildInline, rebuildProjection } from './core/rebuild';
import type { Database } from './database';
import { projectHeldBonuses, projectHeldBonusesAt } from './compensation/projections';
import { projectIncentiveClaims } from './incentives/projections';
import { cyclesPaidWithoutOutcomes, projectMatching } from './matching/projections';
import { projectMembersInBatches } from './membership/member-changes';
import { projectMembersAt } from './membership/members-at';
import { memberTotals } from './membership/member-totals';
import { withDailyTotals, withDailyTotalsAt } from './core/daily-totals';
import { memberChanges, memberRegisteredRow } from './membership/projections';
import { projectPackagePayments } from './payments/projections';
import { projectMemberPoints, projectMemberPointsAt } from './points/projections';
import { type PolicyStateModel, rebuildPolicyState } from './core/policy-state-rebuild';
import { memberDetailsChanges, projectMemberProfiles } from './profile/projections';
import { projectPurchasesAt, projectPurchasesInBatches } from './purchases/projections';
import { projectBonusTables, projectSettings } from './settings/projections';
import { projectAdmins } from './staff/projections';
import { projectStockistRecords, stockistFlagChanges } from './stockists/projections';
import { projectWithdrawalsAt, projectWithdrawalsInBatches, withdrawalAmountChanges, withdrawalTotals } from './wallet/projections';

/**
 * Every read model of the portal, in one list (docs/consumer-runner.md, "Read models"): the
 * asynchronous projections the worker runs and the inline ones commands keep in their own
 * transactions. Each owns its tables alone (no other read model writes them), names the event
 * types it reads, and rebuilds from the log with the apply the live side uses.
 */
export type ReadModel = {
  name: string;
  description: string;
  /**
   * inline: written by commands in their transaction; projection: by the worker, from a checkpoint;
   * policy-state: a policy's working state, following that policy's checkpoint (core/policy-state-rebuild.ts).
   */
  kind: 'inline' | 'projection' | 'policy-state';
  tables: readonly string[];
  eventTypes: readonly string[];
  apply: (trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>;
  /** The asynchronous consumer behind a projection. */
  consumer?: Consumer;
  /** How a policy's working state is replayed (kind policy-state). */
  policyState?: PolicyStateModel;
  /** Why the log cannot rebuild it in this database, if it cannot: the rebuild then refuses, changing nothing. */
  refusal?: (db: Db) => Promise<string | null>;
};

const catalogueEventTypes = Object.values(catalogueKinds).flatMap((kind) => ['Defined', 'Updated', 'Removed'].map((change) => `${kind.prefix}${change}`));

export const inlineReadModels: readonly (InlineReadModel & { description: string; refusal?: ReadModel['refusal'] })[] = [
  {
    name: 'members',
    description: 'Members: registration, activation, package, placement, stockist flag, standing withdrawal amount, names and phone; the counts per day',
    tables: ['members', 'daily_member_totals'],
    // The row gathers facts of several streams: each capability's function writes its own columns.
    eventTypes: [
      'MemberRegistered', 'MemberEmailConfirmed', 'MemberActivated', 'MemberPackageUpgraded', 'MemberRegistrationExpired', 'MemberReinstated',
      'MemberTwoFactorChanged', 'MemberPlacementPreferenceChanged', 'MemberDetailsUpdated', 'WithdrawalAmountSet', 'StockistApproved',
    ],
    // A batch at a time: each member's changes folded in log order and written once (membership/member-changes.ts).
    apply: withDailyTotals(memberTotals, projectMembersInBatches(memberRegisteredRow, [memberChanges, memberDetailsChanges, withdrawalAmountChanges, stockistFlagChanges])),
    // Rebuilds: one statement a batch inside PostgreSQL, written for the members table (membership/members-at.ts).
    applyAt: withDailyTotalsAt(memberTotals, projectMembersAt),
  },
  {
    name: 'member-profiles',
    description: "Members' address, gender, photo and bank details",
    tables: ['member_profiles'],
    eventTypes: ['MemberProfileSubmitted', 'MemberProfileUpdated', 'MemberBankDetailsChanged', 'MemberBankEditabilityChanged'],
    apply: projectMemberProfiles,
  },
  {
    name: 'admins',
    description: 'Back-office staff and their roles',
    tables: ['admins'],
    eventTypes: ['AdminCreated', 'AdminTwoFactorChanged'],
    apply: projectAdmins,
  },
  {
    name: 'package-payments',
    description: 'Registration and upgrade payments, by card and by receipt, with their decisions, and the approved ones per day',
    tables: ['package_payments', 'daily_payment_totals'],
    eventTypes: ['PackagePaymentInitiated', 'PackagePaymentSucceeded', 'PackagePaymentAmountMismatched', 'PackagePaymentApproved', 'PackagePaymentDeclined', 'PackagePaymentNotApplied'],
    apply: projectPackagePayments,
  },
  {
    name: 'withdrawals',
    description: 'Withdrawal requests and their transfers, and the successful ones per day',
    tables: ['withdrawals', 'daily_withdrawal_totals'],
    eventTypes: ['WithdrawalRequested', 'WithdrawalSent', 'WithdrawalSucceeded', 'WithdrawalFailed'],
    // A batch at a time: each withdrawal's changes folded in log order and written once (core/row-changes.ts).
    apply: withDailyTotals(withdrawalTotals, projectWithdrawalsInBatches),
    // Rebuilds: the same inside PostgreSQL, one statement a batch.
    applyAt: withDailyTotalsAt(withdrawalTotals, projectWithdrawalsAt),
  },
  {
    name: 'product-purchases',
    description: 'Product orders and their lines, and the paid repurchases per day',
    tables: ['product_purchases', 'product_purchase_lines', 'daily_repurchase_totals'],
    eventTypes: ['ProductPurchaseInitiated', 'ProductPurchasePaid', 'ProductPurchasePaymentDeclined', 'ProductPurchaseClaimDeclined', 'ProductPurchaseCollected'],
    // A batch at a time: each order's changes folded in log order and written once (core/row-changes.ts).
    apply: projectPurchasesInBatches,
    // Rebuilds: the same inside PostgreSQL, two statements a batch.
    applyAt: projectPurchasesAt,
  },
  {
    name: 'stockists',
    description: 'Stockists, their registration and upgrade payments, stock purchases and their lines',
    tables: ['stockists', 'stockist_payments', 'stock_purchases', 'stock_purchase_lines'],
    eventTypes: [
      'StockistApplied', 'StockistApproved', 'StockistDisapproved', 'StockistProfileUpdated', 'StockistUpgradeRequested', 'StockistUpgradeApproved',
      'StockistUpgradeDisapproved', 'StockPurchaseRequested', 'StockPurchaseApproved', 'StockPurchaseDeclined',
    ],
    apply: projectStockistRecords,
  },
  {
    name: 'incentive-claims',
    description: "Members' incentive claims and their decisions",
    tables: ['incentive_claims'],
    eventTypes: ['IncentiveClaimed', 'IncentiveClaimApproved', 'IncentiveClaimDeclined'],
    apply: projectIncentiveClaims,
  },
  {
    name: 'held-bonuses',
    description: "Bonuses held for a beneficiary's pending registration payment, and how each was settled",
    tables: ['held_bonuses'],
    // Written by the compensation policy in the transaction that appends these events (compensation/projections.ts).
    eventTypes: ['BonusHeld', 'BonusCredited', 'BonusWithheld'],
    apply: projectHeldBonuses,
    // Rebuilds: a batch in two statements inside PostgreSQL (most of these events write nothing).
    applyAt: projectHeldBonusesAt,
  },
  {
    name: 'matching',
    description: "Matching cycles with their totals, each considered member's result per cycle, and each member's carried volume",
    tables: ['matching_cycles', 'matching_results', 'matching_carry'],
    // The row of a cycle is written by the close command; the rest by the points policy, in the
    // transaction that appends the outcomes (matching/projections.ts payMatchingCycle).
    eventTypes: ['MatchingCycleClosed', 'MatchingOutcomesRecorded', 'MatchingCycleSettled'],
    apply: projectMatching,
    refusal: cyclesPaidWithoutOutcomes,
  },
  {
    name: 'settings',
    description: 'The company settings row',
    tables: ['settings'],
    eventTypes: ['SettingsChanged'],
    apply: projectSettings,
  },
  {
    name: 'bonus-tables',
    description: 'Generation bonus percentages per package',
    tables: ['bonus_generation_tables'],
    eventTypes: ['BonusGenerationsChanged'],
    apply: projectBonusTables,
  },
  {
    name: 'catalogue',
    description: 'Packages, ranks, incentives, company banks, stockist packages, products, service providers and services',
    tables: Object.values(catalogueKinds).map((kind) => kind.table),
    eventTypes: catalogueEventTypes,
    apply: projectCatalogue,
  },
];

/** Policies' working state that the log rebuilds (docs/consumer-runner.md, "Policy working state"). */
export const policyStateModels: readonly (PolicyStateModel & { description: string })[] = [
  {
    name: 'member-points',
    description: "Members' PV, CPV, leg volumes and rank, as the points policy keeps them at its checkpoint",
    policy: 'points',
    tables: ['member_points'],
    readTypes: ['MemberActivated', 'MemberPackageUpgraded', 'ProductPurchasePaid'],
    appendedTypes: ['RankAchieved', 'RanksAchieved'],
    apply: projectMemberPoints,
    // The same statement with the batch read inside PostgreSQL.
    applyAt: projectMemberPointsAt,
  },
];

export const readModels: readonly ReadModel[] = [
  ...inlineReadModels.map((model) => ({ ...model, kind: 'inline' as const })),
  ...policyStateModels.map((model) => ({
    name: model.name,
    description: model.description,
    kind: 'policy-state' as const,
    tables: model.tables,
    eventTypes: [...model.readTypes, ...model.appendedTypes],
    apply: model.apply,
    policyState: model,
  })),
  ...consumers
    .filter((consumer) => consumer.kind === 'projection' && consumer.tables?.length)
    .map((consumer) => ({
      name: consumer.name,
      description: `Asynchronous projection (${consumer.tables!.join(', ')})`,
      kind: 'projection' as const,
      tables: consumer.tables!,
      eventTypes: consumer.eventTypes ?? [],
      apply: consumer.apply,
      consumer,
    })),
];

/**
 * Tables that are not read models: state no event carries, on purpose (docs/consumer-runner.md,
 * "What is not a read model"). A rebuild never touches them.
 */
export const operationalTables: Readonly<Record<string, string>> = {
  events: 'the log itself',
  consumer_checkpoints: "each consumer's position in the log",
  unique_keys: 'reservations that make policies and commands idempotent; they guard the log, they are not read from it',
  idempotent_requests: "the answers to retried requests (Idempotency-Key), kept for a day",
  credentials: 'password hashes: secrets never go into the immutable log (a leaked backup of the log must not leak them)',
  sessions: 'sign-in sessions (ip, user agent, last seen): security state that expires, not business facts',
  one_time_codes: 'hashed e-mail codes with attempts and expiry: secrets that expire',
  sign_in_throttles: 'failed sign-in counters per account and address: rate-limit state',
  mail_outbox: 'mails to send and their delivery attempts: a delivery queue; each mail is keyed to its cause',
  kysely_migration: "the migrator's bookkeeping",
  kysely_migration_lock: "the migrator's lock",
  consumer_controls: "an operator's pause of a consumer, as the runner reads it (each pause and resume is also an event with the acting admin)",
  consumer_throughput: 'events applied per consumer per minute: a measurement of the runner, not a business fact',
  projection_rebuilds: "rebuild requests and their progress: the operators' console's job state",
  log_verifications: 'tamper-check runs and their progress and result: a check of the log, not derived from it',
  event_type_counts: 'events appended per type, counted incrementally for /metrics (events_appended_total): a measurement of the log, not a business fact',
  event_type_counts_position: 'how far event_type_counts has counted the log',
  stream_snapshots: "a stream's fold up to a version (core/snapshots.ts), read by commands instead of the whole stream: a cache of the log, safe to delete, never a read model",
  member_search_rows:
    "each member's searched text (lowercased), package and registration time, kept equal to members by its triggers (migrations 2026_12_05_reads8_00, 2026_12_06_reads9_00): a narrow copy the members list searches (docs/decisions.md 82, 83); a rebuild of members keeps it through them",
  log_verified_heads: "each stream's last event as the last intact tamper check saw it: the anchor the next check compares with, so it must not be rebuilt from the log it guards",
};

export function findReadModel(name: string): ReadModel | undefined {
  return readModels.find((model) => model.name === name);
}

export type ReadModelRebuild = { applied: number; swapped: SwapResult | null; schema: string };

/**
 * Rebuilds one read model from the log and swaps it in under live traffic: a projection by its
 * own tables and checkpoint (rebuildProjection), an inline one under its tables' lock (rebuildInline).
 */
export async function rebuildReadModel(
  db: Db,
  model: ReadModel,
  options: { onProgress?: (progress: RebuildProgress) => void; swap?: boolean; beforeSwap?: () => Promise<void>; onLockBusy?: (attempt: number) => void } = {},
): Promise<ReadModelRebuild> {
  const refused = await model.refusal?.(db);
  if (refused) throw new Error(`${model.name} cannot be rebuilt from the log: ${refused}`);
  if (model.consumer) {
    const result = await rebuildProjection(db, model.consumer, options);
    return { applied: result.applied, schema: result.schema, swapped: null };
  }
  if (model.policyState) return rebuildPolicyState(db, model.policyState, options);
  return rebuildInline(db, model, options);
}
