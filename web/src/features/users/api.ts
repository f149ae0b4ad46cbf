import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Role, User } from '@/lib/types';

/** Accounts: the operators' user management and everyone's own password. */
export const usersKey = ['users'] as const;

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
  changePassword: (current: string, next: string) => api.post<{ password_changed: boolean }>('/auth/password', { current_password: current, new_password: next }),
};

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
