/** The seed's route names of the settings pages under /admin (seed 002 §1). */
export const settingsPaths = {
  bonus: 'bonus-settings',
  global_profit: 'global-profit-settings',
  profit_pool: 'profit-pool-settings',
  referral: 'referral-bonus-settings',
  withdrawal: 'withdrawal-settings',
  company: 'company-details',
  upgrade: 'upgrade-settings',
  unilevel: 'unilevel-settings',
  stockist_upline: 'stockist-upline-bonus-setting',
} as const;
