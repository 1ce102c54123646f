import type { Migration } from 'kysely';
import * as eventStore from './2026_11_22_00_00_00_event_store';
import * as productPurchases from './2026_11_22_13_00_00_product_purchases';
import * as accountsAndCatalogue from './2026_11_22_01_00_00_accounts_and_catalogue';
import * as catalogueAndSettings from './2026_11_22_02_00_00_catalogue_and_settings';
import * as packagePayments from './2026_11_22_04_00_00_package_payments';
import * as genealogy from './2026_11_22_05_00_00_genealogy';
import * as wallets from './2026_11_22_06_00_00_wallets';
import * as walletPackagePayments from './2026_11_22_08_00_00_wallet_package_payments';
import * as withdrawals from './2026_11_22_07_00_00_withdrawals';
import * as memberProfiles from './2026_11_22_03_00_00_member_profiles';
import * as memberPoints from './2026_11_22_09_00_00_member_points';
import * as matching from './2026_11_22_10_00_00_matching';
import * as incentiveClaims from './2026_11_22_12_00_00_incentive_claims';
import * as moneyAsOfCause from './2026_11_25_00_00_00_money_as_of_cause';
import * as cyclesPeriodicRunTotals from './2026_11_25_cycles_00_periodic_run_totals';
import * as stockists from './2026_11_25_stockist_00_stockists';
import * as secAuthMailOutbox from './2026_11_25_sec_auth_00_mail_outbox_and_sign_in_throttles';
import * as firstUsePlacementPreference from './2026_11_25_first_use_01_placement_preference';
import * as mailsNotificationsStart from './2026_11_26_mails_00_notifications_start_at_log_end';
import * as financeEventLogExplorer from './2026_11_26_finance_00_event_log_explorer';
import * as operatorsConsumerOperations from './2026_11_26_operators_00_consumer_operations';
import * as auditExportsLogVerifications from './2026_11_26_audit_exports_00_log_verifications';
import * as stockistAdminCardStockPurchases from './2026_11_26_stockist_admin_00_card_stock_purchases';
import * as auditops2EventTypeCounts from './2026_11_27_auditops2_00_event_type_counts';
import * as scaleMembersListIndexes from './2026_11_28_scale_00_members_list_indexes';
import * as appendRoomForHotUpdates from './2026_11_29_append_01_room_for_hot_updates';
import * as appendSingleEventAppend from './2026_11_29_append_02_single_event_append';
import * as speedappendAppendFunction from './2026_11_27_speedappend_01_append_function';
import * as eventindexEventSearch from './2026_11_27_eventindex_00_event_search';
import * as commandsStreamSnapshots from './2026_11_28_commands_00_stream_snapshots';
import * as leadPaymentPurchaseIds from './2026_11_28_lead_00_payment_purchase_ids';
import * as readsMembersSearchAndSort from './2026_11_29_reads_00_members_search_and_sort';
import * as reads2MembersSorts from './2026_11_30_reads2_00_members_sorts';
import * as http2LockedSingleEventAppend from './2026_12_01_http2_00_locked_single_event_append';
import * as membersTiesFollowSort from './2026_12_01_main_00_members_ties_follow_sort';
import * as append2StaleVersionError from './2026_12_02_append2_00_stale_version_error';
import * as reads4MembersPrefixesAndPackageOrder from './2026_12_03_reads4_00_members_prefixes_and_package_order';
import * as reads4MembersTabsByPackage from './2026_12_03_reads4_01_members_tabs_by_package';
import * as cascade8EventsDataUncompressed from './2026_12_05_cascade8_00_events_data_uncompressed';
import * as reads8MemberSearchRows from './2026_12_05_reads8_00_member_search_rows';
import * as reads9MemberSearchRowsLowercased from './2026_12_06_reads9_00_member_search_rows_lowercased';
import * as cascade10RankHeldInMemberPointsOnly from './2026_12_07_cascade10_00_rank_held_in_member_points_only';
import * as dashboardDailyBonusTotals from './2026_12_08_dashboard_00_daily_bonus_totals';
import * as dashboardDailySalesTotals from './2026_12_08_dashboard_01_daily_sales_totals';
import * as dashboardDailyMemberTotals from './2026_12_08_dashboard_02_daily_member_totals';
import * as dashboardDailyWithdrawalTotals from './2026_12_08_dashboard_03_daily_withdrawal_totals';

/**
 * Every migration in order. A static list rather than kysely's FileMigrationProvider: the
 * provider's dynamic import() cannot load .ts files under vitest, and a list also makes a
 * forgotten migration a type error rather than a surprise in production.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_22_00_00_00_event_store': eventStore,
  '2026_11_22_01_00_00_accounts_and_catalogue': accountsAndCatalogue,
  '2026_11_22_02_00_00_catalogue_and_settings': catalogueAndSettings,
  '2026_11_22_03_00_00_member_profiles': memberProfiles,
  '2026_11_22_04_00_00_package_payments': packagePayments,
  '2026_11_22_05_00_00_genealogy': genealogy,
  '2026_11_22_06_00_00_wallets': wallets,
  '2026_11_22_07_00_00_withdrawals': withdrawals,
  '2026_11_22_08_00_00_wallet_package_payments': walletPackagePayments,
  '2026_11_22_09_00_00_member_points': memberPoints,
  '2026_11_22_10_00_00_matching': matching,
  '2026_11_22_12_00_00_incentive_claims': incentiveClaims,
  '2026_11_22_13_00_00_product_purchases': productPurchases,
  '2026_11_25_00_00_00_money_as_of_cause': moneyAsOfCause,
  '2026_11_25_cycles_00_periodic_run_totals': cyclesPeriodicRunTotals,
  '2026_11_25_stockist_00_stockists': stockists,
  '2026_11_25_sec_auth_00_mail_outbox_and_sign_in_throttles': secAuthMailOutbox,
  '2026_11_25_first_use_01_placement_preference': firstUsePlacementPreference,
  '2026_11_26_mails_00_notifications_start_at_log_end': mailsNotificationsStart,
  '2026_11_26_finance_00_event_log_explorer': financeEventLogExplorer,
  '2026_11_26_operators_00_consumer_operations': operatorsConsumerOperations,
  '2026_11_26_audit_exports_00_log_verifications': auditExportsLogVerifications,
  '2026_11_26_stockist_admin_00_card_stock_purchases': stockistAdminCardStockPurchases,
  '2026_11_27_auditops2_00_event_type_counts': auditops2EventTypeCounts,
  '2026_11_27_speedappend_01_append_function': speedappendAppendFunction,
  '2026_11_27_eventindex_00_event_search': eventindexEventSearch,
  '2026_11_28_commands_00_stream_snapshots': commandsStreamSnapshots,
  '2026_11_28_lead_00_payment_purchase_ids': leadPaymentPurchaseIds,
  '2026_11_28_scale_00_members_list_indexes': scaleMembersListIndexes,
  '2026_11_29_append_01_room_for_hot_updates': appendRoomForHotUpdates,
  '2026_11_29_append_02_single_event_append': appendSingleEventAppend,
  '2026_11_29_reads_00_members_search_and_sort': readsMembersSearchAndSort,
  '2026_11_30_reads2_00_members_sorts': reads2MembersSorts,
  '2026_12_01_http2_00_locked_single_event_append': http2LockedSingleEventAppend,
  '2026_12_01_main_00_members_ties_follow_sort': membersTiesFollowSort,
  '2026_12_02_append2_00_stale_version_error': append2StaleVersionError,
  '2026_12_03_reads4_00_members_prefixes_and_package_order': reads4MembersPrefixesAndPackageOrder,
  '2026_12_03_reads4_01_members_tabs_by_package': reads4MembersTabsByPackage,
  '2026_12_05_cascade8_00_events_data_uncompressed': cascade8EventsDataUncompressed,
  '2026_12_05_reads8_00_member_search_rows': reads8MemberSearchRows,
  '2026_12_06_reads9_00_member_search_rows_lowercased': reads9MemberSearchRowsLowercased,
  '2026_12_07_cascade10_00_rank_held_in_member_points_only': cascade10RankHeldInMemberPointsOnly,
  '2026_12_08_dashboard_00_daily_bonus_totals': dashboardDailyBonusTotals,
  '2026_12_08_dashboard_01_daily_sales_totals': dashboardDailySalesTotals,
  '2026_12_08_dashboard_02_daily_member_totals': dashboardDailyMemberTotals,
  '2026_12_08_dashboard_03_daily_withdrawal_totals': dashboardDailyWithdrawalTotals,
};
