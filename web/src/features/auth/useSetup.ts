import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { authKeys } from '@/lib/queryKeys';

/** What the sign-in screens learn from GET /api/auth/setup before anyone signs in. */
export interface Setup {
  needs_first_operator: boolean;
  first_operator_from_cli: boolean;
  /** Whether POST /api/auth/register would accept a visitor now. */
  registration_open: boolean;
}

export function useSetup() {
  return useQuery({ queryKey: authKeys.setup, queryFn: () => api.get<Setup>('/auth/setup'), retry: false, staleTime: 30_000 });
}
