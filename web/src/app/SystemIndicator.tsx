import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Health } from '@/lib/types';

/** 'System Online' while the server reports itself healthy, 'System Degraded' while it answers but cannot store changes. */
export function SystemIndicator() {
  const { data, isError } = useQuery({
    queryKey: ['system', 'health'],
    queryFn: () => api.get<Health>('/system/health'),
    refetchInterval: 10_000,
    retry: false,
  });
  let label = 'Checking...';
  let dot = 'bg-slate-400';
  if (isError) {
    label = 'System Offline';
    dot = 'bg-red-500';
  } else if (data?.status === 'healthy') {
    label = 'System Online';
    dot = 'bg-emerald-500';
  } else if (data?.status === 'degraded') {
    label = 'System Degraded'; // it answers, but the database refuses writes
    dot = 'bg-amber-500';
  } else if (data) {
    label = 'System Offline'; // the database check failed
    dot = 'bg-red-500';
  }
  return (
    <span className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300" data-testid="system-indicator">
      <span className={`h-2.5 w-2.5 rounded-full ${dot}`} aria-hidden="true" />
      {label}
    </span>
  );
}
