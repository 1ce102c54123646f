import { useState, type SyntheticEvent } from 'react';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import ExitIcon from '@mui/icons-material/PowerSettingsNew';
import { Confirm, useLogout, useTranslate, useUserMenu } from 'react-admin';

/** User-menu logout that asks first (seed 001 §2.6: "Logout asks for confirmation"). */
export const ConfirmLogout = () => {
  const translate = useTranslate();
  const logout = useLogout();
  const userMenu = useUserMenu();
  const [open, setOpen] = useState(false);

  const close = () => {
    setOpen(false);
    userMenu?.onClose();
  };

  // The dialog is portalled but React events still bubble to the menu; keep them there.
  const stop = (event: SyntheticEvent) => event.stopPropagation();

  return (
    <>
      <MenuItem onClick={() => setOpen(true)}>
        <ListItemIcon>
          <ExitIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{translate('ra.auth.logout')}</ListItemText>
      </MenuItem>
      <span onClick={stop} onKeyDown={stop}>
        <Confirm
          isOpen={open}
          title="pos.logout.title"
          content="pos.logout.content"
          confirm="pos.logout.confirm"
          ConfirmIcon={ExitIcon}
          onConfirm={() => {
            setOpen(false);
            void logout();
          }}
          onClose={close}
        />
      </span>
    </>
  );
};
