import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '@/lib/api';

export type AlertSeverity = 'critical' | 'high' | 'medium' | 'low';

export interface SystemAlert {
  id: number | string;
  severity: AlertSeverity | string;
  title: string;
  message: string;
  count?: number;
}

interface AlertList {
  alerts: SystemAlert[] | null;
  count: number;
}

export const ALERTS_KEY = ['system', 'alerts', 'open'] as const;
const ALERTS_PATH = '/system/alerts?resolved=false&limit=10';

/** Critical and high alerts can be resolved from the overlay; the rest only dismissed. */
export function canResolve(severity: string): boolean {
  return severity === 'critical' || severity === 'high';
}

/** The key a local dismissal is remembered by: an alert that fires again (count grows) shows again. */
export function dismissKey(a: SystemAlert): string {
  return `${a.id}:${a.count ?? 1}`;
}

/** The alerts still to show, given the locally dismissed keys. */
export function visibleAlerts(alerts: readonly SystemAlert[] | null | undefined, dismissed: ReadonlySet<string>): SystemAlert[] {
  return (alerts ?? []).filter((a) => !dismissed.has(dismissKey(a)));
}

const STYLES: Record<AlertSeverity, { box: string; icon: string; label: string }> = {
  critical: {
    box: 'border-red-400 bg-red-50 dark:border-red-700 dark:bg-red-950',
    icon: 'text-red-600 dark:text-red-400',
    label: 'Critical',
  },
  high: {
    box: 'border-orange-400 bg-orange-50 dark:border-orange-700 dark:bg-orange-950',
    icon: 'text-orange-600 dark:text-orange-400',
    label: 'High',
  },
  medium: {
    box: 'border-amber-300 bg-amber-50 dark:border-amber-700 dark:bg-amber-950',
    icon: 'text-amber-600 dark:text-amber-400',
    label: 'Medium',
  },
  low: {
    box: 'border-sky-300 bg-sky-50 dark:border-sky-700 dark:bg-sky-950',
    icon: 'text-sky-600 dark:text-sky-400',
    label: 'Low',
  },
};

function styleOf(severity: string) {
  return STYLES[severity as AlertSeverity] ?? STYLES.low;
}

function SeverityIcon({ severity }: { severity: string }) {
  const s = styleOf(severity);
  const common = { className: `h-5 w-5 shrink-0 ${s.icon}`, viewBox: '0 0 20 20', fill: 'currentColor', role: 'img', 'aria-label': `${s.label} severity` };
  if (severity === 'critical' || severity === 'high') {
    // Warning triangle.
    return (
      <svg {...common}>
        <path
          fillRule="evenodd"
          d="M8.485 2.495c.673-1.167 2.357-1.167 3.03 0l6.28 10.875c.673 1.167-.17 2.625-1.516 2.625H3.72c-1.347 0-2.189-1.458-1.515-2.625L8.485 2.495zM10 6a.75.75 0 01.75.75v3.5a.75.75 0 01-1.5 0v-3.5A.75.75 0 0110 6zm0 9a1 1 0 100-2 1 1 0 000 2z"
          clipRule="evenodd"
        />
      </svg>
    );
  }
  // Information circle.
  return (
    <svg {...common}>
      <path
        fillRule="evenodd"
        d="M18 10a8 8 0 11-16 0 8 8 0 0116 0zm-7-4a1 1 0 11-2 0 1 1 0 012 0zM9 9a.75.75 0 000 1.5h.253a.25.25 0 01.244.304l-.459 2.066A1.75 1.75 0 0010.747 15H11a.75.75 0 000-1.5h-.253a.25.25 0 01-.244-.304l.459-2.066A1.75 1.75 0 009.253 9H9z"
        clipRule="evenodd"
      />
    </svg>
  );
}

const DISMISSED_KEY = 'kestrel_dismissed_alerts';
export const AUTO_HIDE_MS = 15_000;

/** Dismissals last for the browser session, so a reload does not bring them back. */
function loadDismissed(): ReadonlySet<string> {
  try {
    const raw = sessionStorage.getItem(DISMISSED_KEY);
    return new Set(raw ? (JSON.parse(raw) as string[]) : []);
  } catch {
    return new Set();
  }
}

function saveDismissed(d: ReadonlySet<string>): void {
  try {
    sessionStorage.setItem(DISMISSED_KEY, JSON.stringify([...d].slice(-200)));
  } catch {
    // storage full or disabled: dismissals last until the page reloads
  }
}

/** The fixed top-right stack of open system alerts, polled every 10 seconds. */
export function AlertOverlay() {
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(loadDismissed);
  const query = useQuery({
    queryKey: ALERTS_KEY,
    queryFn: () => api.get<AlertList>(ALERTS_PATH),
    refetchInterval: 10_000,
    staleTime: 0,
  });
  const resolve = useMutation({
    mutationFn: (id: SystemAlert['id']) => api.post<unknown>(`/system/alerts/${encodeURIComponent(String(id))}/resolve`),
    retry: false,
    onSuccess: () => void query.refetch(),
    onError: (err) => console.error('Failed to resolve alert', err),
  });

  const alerts = visibleAlerts(query.data?.alerts, dismissed);
  const autoHide = alerts.filter((a) => !canResolve(a.severity)).map(dismissKey).join(',');

  // Medium and low alerts leave the stack on their own after a while so they do
  // not sit over the page; they stay listed by the API until resolved.
  useEffect(() => {
    if (!autoHide) return;
    const id = setTimeout(() => {
      setDismissed((d) => {
        const next = new Set(d);
        for (const k of autoHide.split(',')) next.add(k);
        saveDismissed(next);
        return next;
      });
    }, AUTO_HIDE_MS);
    return () => clearTimeout(id);
  }, [autoHide]);
  if (alerts.length === 0) return null;

  const dismiss = (a: SystemAlert) =>
    setDismissed((d) => {
      const next = new Set(d).add(dismissKey(a));
      saveDismissed(next);
      return next;
    });

  return (
    <div className="pointer-events-none fixed right-4 top-16 z-30 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-2" aria-live="polite" aria-label="System alerts">
      {alerts.map((a) => {
        const s = styleOf(a.severity);
        const resolving = resolve.isPending && resolve.variables === a.id;
        return (
          <div key={String(a.id)} role="alert" className={`pointer-events-auto rounded-lg border p-3 shadow-lg ${s.box}`}>
            <div className="flex items-start gap-2">
              <SeverityIcon severity={a.severity} />
              <div className="min-w-0 flex-1">
                <p className="text-sm font-semibold text-slate-900 dark:text-slate-100">
                  {a.title}
                  {a.count && a.count > 1 ? <span className="ml-2 text-xs font-normal text-slate-500 dark:text-slate-400">×{a.count}</span> : null}
                </p>
                <p className="mt-0.5 break-words text-sm text-slate-700 dark:text-slate-300">{a.message}</p>
                <div className="mt-2 flex gap-2">
                  {canResolve(a.severity) && (
                    <button
                      type="button"
                      disabled={resolving}
                      onClick={() => resolve.mutate(a.id)}
                      className="rounded bg-slate-900 px-2 py-1 text-xs font-medium text-white hover:bg-slate-700 disabled:opacity-50 dark:bg-slate-100 dark:text-slate-900 dark:hover:bg-slate-300"
                    >
                      {resolving ? 'Resolving...' : 'Resolve'}
                    </button>
                  )}
                  <button
                    type="button"
                    onClick={() => dismiss(a)}
                    className="rounded border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-white/60 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800"
                  >
                    Dismiss
                  </button>
                </div>
              </div>
              <button
                type="button"
                aria-label="Close alert"
                onClick={() => dismiss(a)}
                className="rounded p-0.5 text-slate-500 hover:bg-black/5 hover:text-slate-800 dark:text-slate-400 dark:hover:bg-white/10 dark:hover:text-slate-100"
              >
                <svg className="h-4 w-4" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">
                  <path d="M6.28 5.22a.75.75 0 00-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 101.06 1.06L10 11.06l3.72 3.72a.75.75 0 101.06-1.06L11.06 10l3.72-3.72a.75.75 0 00-1.06-1.06L10 8.94 6.28 5.22z" />
                </svg>
              </button>
            </div>
          </div>
        );
      })}
    </div>
  );
}
