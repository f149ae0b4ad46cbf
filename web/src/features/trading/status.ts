/** The dashboard header's badge: stale beats everything (nothing is known now), then the emergency stop, then the server's own health. */
export function healthBadge(s: { stale: boolean; halted: boolean; healthy: boolean }): { text: string; cls: string } {
  if (s.stale) return { text: 'Status Unknown', cls: 'bg-slate-200 text-slate-600 dark:bg-slate-700 dark:text-slate-300' };
  if (s.halted) return { text: 'Trading Halted', cls: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200' };
  if (s.healthy) return { text: 'System Healthy', cls: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200' };
  return { text: 'System Issues', cls: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200' };
}
