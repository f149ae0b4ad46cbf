import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { components } from '@/api/schema';
import type { Role, User } from '@/lib/types';
import { authKeys, userKeys } from '@/lib/queryKeys';

/** Accounts: the operators' user management and everyone's own password. */
export const usersKey = userKeys.list;

export interface NewUser {
  email: string;
  name: string;
  password: string;
  role: Role;
}

export interface UserChange {
  role?: Role;
  disabled?: boolean;
}

export const usersApi = {
  list: () => api.get<{ users: User[] }>('/users').then((d) => d.users),
  create: (u: NewUser) => api.post<User>('/users', u),
  update: (id: string, ch: UserChange) => api.patch<User>(`/users/${encodeURIComponent(id)}`, ch),
  resetPassword: (id: string, newPassword: string) => api.post<{ password_reset: boolean }>(`/users/${encodeURIComponent(id)}/password`, { new_password: newPassword }),
  resetTotp: (id: string) => api.post<{ totp_reset: boolean }>(`/users/${encodeURIComponent(id)}/totp/reset`),
  changePassword: (current: string, next: string) => api.post<{ password_changed: boolean }>('/auth/password', { current_password: current, new_password: next }),
  sessions: () => api.get<{ sessions: Session[] }>('/auth/sessions').then((d) => d.sessions),
  endSession: (id: string) => api.del<{ ended: boolean }>(`/auth/sessions/${encodeURIComponent(id)}`),
  endOtherSessions: () => api.post<{ ended: number }>('/auth/sessions/end-others'),
};

/** One of the signed-in user's sessions (GET /auth/sessions). */
export type Session = components['schemas']['SessionInfo'];

export const sessionsKey = authKeys.sessions;

export function useSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: usersApi.sessions });
}

/** A mutation on the user's sessions that refreshes their list when done. */
export function useSessionMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, retry: 0, onSettled: () => qc.invalidateQueries({ queryKey: sessionsKey }) });
}

export function useUsers() {
  return useQuery({ queryKey: usersKey, queryFn: usersApi.list });
}

/** A mutation that refreshes the user list when it succeeds. */
export function useUserMutation<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, retry: 0, onSuccess: () => qc.invalidateQueries({ queryKey: usersKey }) });
}

export function useChangePassword() {
  return useMutation({ mutationFn: ({ current, next }: { current: string; next: string }) => usersApi.changePassword(current, next), retry: 0 });
}
