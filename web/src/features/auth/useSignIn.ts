import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { api } from '@/lib/api';
import { meKey } from '@/lib/auth';
import { returnPath } from '@/lib/returnTo';
import { setToken } from '@/lib/token';
import type { LoginResult } from '@/lib/types';

/**
 * Calls a sign-in endpoint; on success keeps the token and opens the screen
 * the visitor was sent away from (RequireAuth's state, or ?next= after a 401),
 * else the dashboard.
 */
export function useSignIn(path: '/auth/login' | '/auth/register') {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const from: unknown = (location.state as { from?: unknown } | null)?.from ?? new URLSearchParams(location.search).get('next');
  return useMutation({
    mutationFn: (body: Record<string, string>) => api.post<LoginResult>(path, body),
    retry: 0,
    onSuccess: (res) => {
      setToken(res.token);
      qc.setQueryData(meKey, res.user);
      // A sign-in that turned two-factor on shows its recovery codes first (Login).
      if (!res.recovery_codes?.length) navigate(returnPath(from), { replace: true });
    },
  });
}
