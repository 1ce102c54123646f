import SecurityIcon from '@mui/icons-material/Security';
import CompanyFinanceIcon from '@mui/icons-material/AccountBalanceOutlined';
import StockistIcon from '@mui/icons-material/StorefrontOutlined';
import { Menu as RaMenu, useBasename } from 'react-admin';
import { SettingsMenu } from '../settings';

/** Dashboard, then one entry per registered resource, then the custom pages. */
export const Menu = () => {
  const basename = useBasename();
  return (
    <RaMenu>
      <RaMenu.DashboardItem />
      <RaMenu.ResourceItems />
      <RaMenu.Item to={`${basename}/wallet`} primaryText="pos.finance.menu" leftIcon={<CompanyFinanceIcon />} />
      <RaMenu.Item to={`${basename}/stockist-history`} primaryText="Stockist History" leftIcon={<StockistIcon />} />
      <SettingsMenu />
      <RaMenu.Item to={`${basename}/security`} primaryText="pos.menu.security" leftIcon={<SecurityIcon />} />
    </RaMenu>
  );
};
