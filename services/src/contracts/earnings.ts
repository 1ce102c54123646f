/**
 * One definition of what a member has earned (issue 11 "one set of figures"): every bonus of
 * every kind credited to the member's wallet, before withdrawals and wallet payments. Withheld
 * bonuses (never paid) are not earnings. The member dashboard's "Total Wallet Earned", the
 * wallet's "Total bonus", the back office's per-member figures and its company "Total bonus"
 * all come from this definition; the per-kind cards below list every kind a member can earn.
 */
export const earningKinds = [
  'referral',
  'placement',
  'welcome',
  'equilibrium',
  'upgrade',
  'repurchase',
  'unilevel',
  'loyalty',
  'matching',
  'signee',
  'stockist_upline',
  'stockist_rebate',
  'award_sponsor',
  'award_direct_downline',
  'global_profit',
  'profit_pool',
] as const;
export type EarningKind = (typeof earningKinds)[number];

/** Total earned, in the unit of the amounts given (kobo inside, naira at the edge). */
export function totalEarned(rows: ReadonlyArray<{ kind: string; total: number }>): number {
  const known = new Set<string>(earningKinds);
  return rows.filter((r) => known.has(r.kind)).reduce((sum, r) => sum + r.total, 0);
}
