import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { api } from '@/lib/api';
import { meKey } from '@/lib/auth';
import { setToken } from '@/lib/token';
import type { LoginResult } from '@/lib/types';

/** Calls a sign-in endpoint; on success keeps the token and opens the dashboard. */
export function useSignIn(path: '/auth/login' | '/auth/register') {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (body: Record<string, string>) => api.post<LoginResult>(path, body),
    retry: 0,
    onSuccess: (res) => {
      setToken(res.token);
      qc.setQueryData(meKey, res.user);
      // A sign-in that turned two-factor on shows its recovery codes first (Login).
      if (!res.recovery_codes?.length) navigate('/dashboard', { replace: true });
    },
  });
}
