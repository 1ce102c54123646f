import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazy';
import { settingsPaths } from './paths';

// Each settings page is loaded when first opened (its own chunk).
const BonusSettingsPage = lazyScreen(() => import('./BonusSettingsPage'), 'BonusSettingsPage');
const CompanyDetailsPage = lazyScreen(() => import('./CompanyDetailsPage'), 'CompanyDetailsPage');
const ReferralBonusSettingsPage = lazyScreen(() => import('./GenerationSettingsPages'), 'ReferralBonusSettingsPage');
const StockistUplineBonusSettingsPage = lazyScreen(() => import('./GenerationSettingsPages'), 'StockistUplineBonusSettingsPage');
const UnilevelBonusSettingsPage = lazyScreen(() => import('./GenerationSettingsPages'), 'UnilevelBonusSettingsPage');
const UpgradeBonusSettingsPage = lazyScreen(() => import('./GenerationSettingsPages'), 'UpgradeBonusSettingsPage');
const GlobalProfitSettingsPage = lazyScreen(() => import('./GlobalProfitSettingsPage'), 'GlobalProfitSettingsPage');
const ProfitPoolSettingsPage = lazyScreen(() => import('./ProfitPoolSettingsPage'), 'ProfitPoolSettingsPage');
const WithdrawalSettingsPage = lazyScreen(() => import('./WithdrawalSettingsPage'), 'WithdrawalSettingsPage');

export { SettingsMenu } from './SettingsMenu';
export { settingsPaths } from './paths';

/** The settings pages as custom routes, for App.tsx's <CustomRoutes>: `{settingsRoutes}`. */
export const settingsRoutes = [
  <Route key="bonus" path={`/${settingsPaths.bonus}`} element={<BonusSettingsPage />} />,
  <Route key="global_profit" path={`/${settingsPaths.global_profit}`} element={<GlobalProfitSettingsPage />} />,
  <Route key="profit_pool" path={`/${settingsPaths.profit_pool}`} element={<ProfitPoolSettingsPage />} />,
  <Route key="referral" path={`/${settingsPaths.referral}`} element={<ReferralBonusSettingsPage />} />,
  <Route key="withdrawal" path={`/${settingsPaths.withdrawal}`} element={<WithdrawalSettingsPage />} />,
  <Route key="company" path={`/${settingsPaths.company}`} element={<CompanyDetailsPage />} />,
  <Route key="upgrade" path={`/${settingsPaths.upgrade}`} element={<UpgradeBonusSettingsPage />} />,
  <Route key="unilevel" path={`/${settingsPaths.unilevel}`} element={<UnilevelBonusSettingsPage />} />,
  <Route key="stockist_upline" path={`/${settingsPaths.stockist_upline}`} element={<StockistUplineBonusSettingsPage />} />,
];
