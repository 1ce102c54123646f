import type { ReactNode } from 'react';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import SecurityOutlined from '@mui/icons-material/SecurityOutlined';
import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import ShoppingBasketOutlined from '@mui/icons-material/ShoppingBasketOutlined';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import AssignmentTurnedInOutlined from '@mui/icons-material/AssignmentTurnedInOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import AddBusinessOutlined from '@mui/icons-material/AddBusinessOutlined';

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
  { name: 'user-repurchase', label: 'Repurchase', to: '/user/repurchase', icon: <ShoppingBasketOutlined /> },
  { name: 'user-security', label: 'Security', to: '/user/security', icon: <SecurityOutlined /> },
];

/** 'Become a Stockist', shown only while the member is not a stockist (seed 000 §2.4). */
export const becomeStockistNav: NavItem = { name: 'user-stockist_reg', label: 'Become a Stockist', to: '/user/stockist-registration', icon: <AddBusinessOutlined /> };

/** The Stockist Portal group, shown when is_stockist is true (seed 000 §2.4). */
export const stockistNav: NavItem[] = [
  { name: 'user-stockistprofile', label: 'Stockist Profile', to: '/user/stockist-profile', icon: <StorefrontOutlined /> },
  { name: 'user-stockpurchase', label: 'Stock Purchase', to: '/user/stock-purchase', icon: <Inventory2Outlined /> },
  { name: 'user-stockistrecord', label: 'Stockist Record', to: '/user/stockist-record', icon: <ReceiptLongOutlined /> },
  { name: 'user-order', label: 'Order Processing', to: '/user/order', icon: <AssignmentTurnedInOutlined /> },
];

/** The whole sidebar for a member: the menu, then 'Become a Stockist' or the Stockist Portal group. */
export function navFor(isStockist: boolean): Array<{ group: string; items: NavItem[] }> {
  return [
    { group: 'Menu', items: isStockist ? memberNav : [...memberNav, becomeStockistNav] },
    ...(isStockist ? [{ group: 'Stockist Portal', items: stockistNav }] : []),
  ];
}
