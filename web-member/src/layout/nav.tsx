import type { ReactNode } from 'react';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';

export interface NavItem {
  /** Route name of seed 000 §2.4. */
  name: string;
  label: string;
  to: string;
  icon: ReactNode;
}

/**
 * Sidebar entries (seed 000 §2.4). Only screens that exist are listed; the profile, downlines,
 * genealogy, wallet, repurchase, stockist and security screens are added with their issues.
 */
export const memberNav: NavItem[] = [{ name: 'user-dashboard', label: 'Dashboard', to: '/user/dashboard', icon: <DashboardOutlined /> }];
