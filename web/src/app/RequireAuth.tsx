import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { loginFor } from '@/lib/returnTo';
import { getToken } from '@/lib/token';

/**
 * Screens need a session: without a token, go to /login, which comes back here after signing in.
 * The way back is in the address (?next=), as after a 401 (lib/api.ts): when a 401 clears the
 * token, this redirect and the 401's can race, and both must land on the same address.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const here = location.pathname + location.search + location.hash;
  if (!getToken()) return <Navigate to={loginFor(here)} replace state={{ from: here }} />;
  return children;
}
