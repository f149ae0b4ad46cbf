import { useQuery } from '@tanstack/react-query';
import { useSystemStatus } from '@/features/trading/api';
import { api } from '@/lib/api';
import { useConnectionLost } from '@/lib/connection';
import type { Health } from '@/lib/types';
import { systemKeys } from '@/lib/queryKeys';

/**
 * 'System Online' while the server reports itself healthy, 'System Degraded' while it answers but cannot store
 * changes, 'Trading Halted' under the emergency stop, and 'System Offline' as soon as the server stops answering
 * (any call or the realtime socket), whatever it last said.
 */
export function SystemIndicator() {
  const { data, isError } = useQuery({
    queryKey: systemKeys.health,
    queryFn: () => api.get<Health>('/system/health'),
    refetchInterval: 10_000,
    retry: false,
  });
  const status = useSystemStatus();
  const lost = useConnectionLost();
  const halted = status.data?.trading_engine?.trading_halted === true;
  let label = 'Checking...';
  let dot = 'bg-slate-400';
  if (isError || lost !== null) {
    label = 'System Offline';
    dot = 'bg-slate-400';
  } else if (data?.status === 'healthy' || data?.status === 'degraded') {
    label = data.status === 'healthy' ? 'System Online' : 'System Degraded'; // degraded: it answers, but the database refuses writes
    dot = data.status === 'healthy' ? 'bg-emerald-500' : 'bg-amber-500';
    if (halted) {
      label = 'Trading Halted';
      dot = 'bg-red-500';
    }
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
