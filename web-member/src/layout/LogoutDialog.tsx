import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import { authApi } from '../api/auth';
import { endSession } from '../auth/session';

/** POST /auth/logout, then the token is cleared and the page reloads at /login (seed 000 §4). */
export async function logout(): Promise<void> {
  try {
    await authApi.logout();
  } catch {
    /* the session ends on this device whatever the server answered */
  }
  endSession();
}

export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="logout-title" maxWidth="xs" fullWidth>
      <DialogTitle id="logout-title">Are you sure you want to log out?</DialogTitle>
      <DialogContent>
        <DialogContentText>Confirm this is not a mistake.</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose} disabled={busy} color="inherit">
          Cancel
        </Button>
        <Button
          variant="contained"
          color="error"
          startIcon={<LogoutIcon />}
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void logout();
          }}
        >
          Log out
        </Button>
      </DialogActions>
    </Dialog>
  );
}
