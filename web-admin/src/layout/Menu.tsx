import SecurityIcon from '@mui/icons-material/Security';
import CompanyFinanceIcon from '@mui/icons-material/AccountBalanceOutlined';
import ConsumersIcon from '@mui/icons-material/SettingsInputComponentOutlined';
import TamperCheckIcon from '@mui/icons-material/VerifiedUserOutlined';
import TransactionsIcon from '@mui/icons-material/ReceiptLongOutlined';
import { Menu as RaMenu, useBasename, useResourceDefinitions } from 'react-admin';
import { SettingsMenu } from '../settings';

/** Resources shown as tabs of the transactions screen (transactions/TransactionsPage.tsx), not as menu entries. */
const transactionTabs = ['withdrawals', 'registrations', 'upgrades', 'product-sales'];

/** Dashboard, then one entry per registered resource with a list, then the custom pages. */
export const Menu = () => {
  const basename = useBasename();
  const resources = useResourceDefinitions();
  return (
    <RaMenu>
      <RaMenu.DashboardItem />
      {Object.values(resources)
        .filter((resource) => resource.hasList && !transactionTabs.includes(resource.name))
        .map((resource) => <RaMenu.ResourceItem key={resource.name} name={resource.name} />)}
      <RaMenu.Item to={`${basename}/transactions`} primaryText="pos.transactions.menu" leftIcon={<TransactionsIcon />} />
      <RaMenu.Item to={`${basename}/wallet`} primaryText="pos.finance.menu" leftIcon={<CompanyFinanceIcon />} />
      <RaMenu.Item to={`${basename}/consumers`} primaryText="pos.consumers.menu" leftIcon={<ConsumersIcon />} />
      <RaMenu.Item to={`${basename}/tamper-check`} primaryText="pos.tamper.menu" leftIcon={<TamperCheckIcon />} />
      <SettingsMenu />
      <RaMenu.Item to={`${basename}/security`} primaryText="pos.menu.security" leftIcon={<SecurityIcon />} />
    </RaMenu>
  );
};
