import { Route } from 'react-router-dom';
import { BonusSettingsPage } from './BonusSettingsPage';
import { CompanyDetailsPage } from './CompanyDetailsPage';
import { ReferralBonusSettingsPage, StockistUplineBonusSettingsPage, UnilevelBonusSettingsPage, UpgradeBonusSettingsPage } from './GenerationSettingsPages';
import { GlobalProfitSettingsPage } from './GlobalProfitSettingsPage';
import { ProfitPoolSettingsPage } from './ProfitPoolSettingsPage';
import { WithdrawalSettingsPage } from './WithdrawalSettingsPage';
import { settingsPaths } from './paths';

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
