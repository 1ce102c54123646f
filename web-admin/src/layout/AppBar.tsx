import { Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import SpaIcon from '@mui/icons-material/Spa';
import { AppBar as RaAppBar, TitlePortal, UserMenu, useTranslate } from 'react-admin';
import { ConfirmLogout } from './ConfirmLogout';

const AppUserMenu = () => (
  <UserMenu>
    <ConfirmLogout />
  </UserMenu>
);

export const AppBar = () => {
  const translate = useTranslate();
  const isLarge = useMediaQuery<Theme>((theme) => theme.breakpoints.up('sm'));
  return (
    <RaAppBar color="primary" userMenu={<AppUserMenu />}>
      <TitlePortal />
      {isLarge && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mr: 1, opacity: 0.95 }}>
          <SpaIcon fontSize="small" />
          <Typography variant="subtitle1" component="span" sx={{ fontWeight: 600 }}>
            {translate('pos.company')}
          </Typography>
        </Box>
      )}
    </RaAppBar>
  );
};
