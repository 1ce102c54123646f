import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Link } from '@mui/material';

/** An in-app link styled as a MUI link. */
export function AppLink({ to, children, ...rest }: { to: string; children: ReactNode; 'data-testid'?: string }) {
  return (
    <Link component={RouterLink} to={to} {...rest}>
      {children}
    </Link>
  );
}
