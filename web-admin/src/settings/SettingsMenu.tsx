import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import BusinessIcon from '@mui/icons-material/Business';
import CardGiftcardIcon from '@mui/icons-material/CardGiftcard';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import LayersIcon from '@mui/icons-material/Layers';
import PublicIcon from '@mui/icons-material/Public';
import SavingsIcon from '@mui/icons-material/Savings';
import SettingsIcon from '@mui/icons-material/Settings';
import StorefrontIcon from '@mui/icons-material/Storefront';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { Menu as RaMenu, useBasename, useSidebarState, useTranslate } from 'react-admin';
import { settingsPaths } from './paths';

const icons = {
  bonus: <CardGiftcardIcon />,
  global_profit: <PublicIcon />,
  profit_pool: <SavingsIcon />,
  referral: <GroupAddIcon />,
  withdrawal: <AccountBalanceIcon />,
  company: <BusinessIcon />,
  upgrade: <TrendingUpIcon />,
  unilevel: <LayersIcon />,
  stockist_upline: <StorefrontIcon />,
} as const;

/**
 * The settings pages as one collapsible group of the sidebar (the react-admin demo's SubMenu),
 * open while one of them is shown.
 */
export const SettingsMenu = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const { pathname } = useLocation();
  const [sidebarOpen] = useSidebarState();
  const onSettingsPage = Object.values(settingsPaths).some((path) => pathname.startsWith(`${basename}/${path}`));
  const [open, setOpen] = useState(onSettingsPage);
  return (
    <>
      <MenuItem onClick={() => setOpen(!open)} aria-expanded={open} data-testid="settings-menu" sx={{ color: 'text.secondary' }}>
        <ListItemIcon sx={{ minWidth: 5 }}>{open ? <ExpandLessIcon /> : <ExpandMoreIcon />}</ListItemIcon>
        <ListItemIcon sx={{ minWidth: 5, ml: sidebarOpen ? 1 : 0, display: sidebarOpen ? undefined : 'none' }}>
          <SettingsIcon fontSize="small" />
        </ListItemIcon>
        {sidebarOpen ? (
          <Typography variant="inherit" sx={{ ml: 1 }}>
            {translate('pos.settings.menu.group')}
          </Typography>
        ) : null}
      </MenuItem>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List
          dense
          component="div"
          disablePadding
          sx={{ '& .MuiMenuItem-root': { transition: 'padding-left 195ms', pl: (theme) => (sidebarOpen ? theme.spacing(4) : theme.spacing(2)) } }}
        >
          {(Object.keys(settingsPaths) as Array<keyof typeof settingsPaths>).map((name) => (
            <RaMenu.Item key={name} to={`${basename}/${settingsPaths[name]}`} primaryText={`pos.settings.menu.${name}`} leftIcon={icons[name]} dense />
          ))}
        </List>
      </Collapse>
    </>
  );
};
