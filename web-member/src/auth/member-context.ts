import { createContext, useContext } from 'react';
import type { AuthUser } from '@portal/services/contracts/auth';

export const MemberContext = createContext<AuthUser | null>(null);

/** The signed-in member; only usable below <RequireMember>. */
export function useMember(): AuthUser {
  const m = useContext(MemberContext);
  if (!m) throw new Error('useMember must be used below <RequireMember>');
  return m;
}
