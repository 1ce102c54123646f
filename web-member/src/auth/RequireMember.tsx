import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { Alert, Box, Button } from '@mui/material';
import type { AuthUser } from '@portal/services/contracts/auth';
import { useCurrentUser } from '../api/queries';
import { FullPageLoader } from '../components/FullPageLoader';
import { clearToken, getToken } from './token';
import { useIdleLogout } from './idle';
import { MemberContext } from './member-context';

/**
 * Route guard for the member area (seed 000 §6): a stored token is required, else the token is
 * cleared and the visitor goes to /login; the account must not be an admin. Also runs the idle
 * sign-out (§9) while a member is signed in.
 */
export function RequireMember() {
  const token = getToken();
  const me = useCurrentUser(Boolean(token));
  const isAdmin = me.data?.is_admin === true;

  useIdleLogout(Boolean(token));
  useEffect(() => {
    if (!token || isAdmin) clearToken();
  }, [token, isAdmin]);

  if (!token || isAdmin) return <Navigate to="/login" replace />;
  if (me.isPending) return <FullPageLoader label="Loading your account" />;
  if (me.isError || !me.data) {
    return (
      <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void me.refetch()}>
              Retry
            </Button>
          }
        >
          We could not load your account. Check your connection and try again.
        </Alert>
      </Box>
    );
  }
  return (
    <MemberContext.Provider value={me.data as AuthUser}>
      <Outlet />
    </MemberContext.Provider>
  );
}
