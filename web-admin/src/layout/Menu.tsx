import SecurityIcon from '@mui/icons-material/Security';
import { Menu as RaMenu, useBasename } from 'react-admin';

/** Dashboard, then one entry per registered resource, then the custom pages. */
export const Menu = () => {
  const basename = useBasename();
  return (
    <RaMenu>
      <RaMenu.DashboardItem />
      <RaMenu.ResourceItems />
      <RaMenu.Item to={`${basename}/security`} primaryText="pos.menu.security" leftIcon={<SecurityIcon />} />
    </RaMenu>
  );
};
