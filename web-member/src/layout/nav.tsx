import type { ReactNode } from 'react';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import SecurityOutlined from '@mui/icons-material/SecurityOutlined';
import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';

export interface NavItem {
  /** Route name of seed 000 §2.4. */
  name: string;
  label: string;
  to: string;
  icon: ReactNode;
}

/**
 * Sidebar entries (seed 000 §2.4). Only screens that exist are listed; the downlines, genealogy,
 * wallet, repurchase and stockist screens are added with their issues.
 */
export const memberNav: NavItem[] = [
  { name: 'user-dashboard', label: 'Dashboard', to: '/user/dashboard', icon: <DashboardOutlined /> },
  { name: 'user-profile', label: 'Profile', to: '/user/profile', icon: <PersonOutline /> },
  { name: 'user-wallet', label: 'Wallet', to: '/user/wallet', icon: <AccountBalanceWalletOutlined /> },
  { name: 'user-downlines', label: 'Downlines', to: '/user/downlines', icon: <GroupsOutlined /> },
  { name: 'user-genealogy', label: 'Network', to: '/user/genealogy', icon: <AccountTreeOutlined /> },
  { name: 'user-security', label: 'Security', to: '/user/security', icon: <SecurityOutlined /> },
];
