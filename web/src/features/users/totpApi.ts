import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ApiData } from '@/lib/types';
import { authKeys } from '@/lib/queryKeys';

/** The signed-in account's own two-factor authentication (TOTP). */


export type TotpStatus = ApiData<'/api/auth/totp', 'get'>;
export type TotpSetup = ApiData<'/api/auth/totp/setup', 'post'>;
export type TotpConfirmed = ApiData<'/api/auth/totp/confirm', 'post'>;

export const totpKey = authKeys.totp;

export function useTotpStatus() {
  return useQuery({ queryKey: totpKey, queryFn: () => api.get<TotpStatus>('/auth/totp') });
}

/** A TOTP mutation that refreshes the status when it succeeds. */
function useTotpMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, retry: 0, onSuccess: () => qc.invalidateQueries({ queryKey: totpKey }) });
}

export const useTotpSetup = () => useTotpMutation(() => api.post<TotpSetup>('/auth/totp/setup'));
export const useTotpConfirm = () => useTotpMutation((code: string) => api.post<TotpConfirmed>('/auth/totp/confirm', { code }));
export const useTotpDisable = () =>
  useTotpMutation(({ password, code }: { password: string; code: string }) => api.post<{ enabled: false }>('/auth/totp/disable', { password, code }));
