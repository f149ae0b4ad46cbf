import { useEffect, useState } from 'react';
import { formatDateTime } from '@/lib/format';
import { useConnectionLost } from '@/lib/connection';
import { activeAlerts, canResolve, useAlertAction, useOpenAlerts, type SystemAlert } from './api';
import { SeverityIcon, severityStyle } from './Severity';

/**
 * The header's bell: how many open alerts the signed-in user has not
 * dismissed, red while one of them is critical or high, grey and marked
 * last known while the server does not answer. It opens the alerts drawer.
 */
export function AlertBell() {
  const [open, setOpen] = useState(false);
  const query = useOpenAlerts();
  const lost = useConnectionLost();
  const active = activeAlerts(query.data?.alerts);
  const urgent = active.some((a) => canResolve(a.severity));
  const stale = lost !== null;
  const n = active.length;
  const label = `Alerts: ${n} active${stale ? ' (last known)' : ''}`;
  const badge = stale ? 'bg-slate-400 dark:bg-slate-600' : urgent ? 'bg-red-600' : 'bg-amber-500';
  return (
    <>
      <button
        type="button"
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen((o) => !o)}
        data-testid="alert-bell"
        data-stale={stale}
        className={`relative rounded p-1.5 hover:bg-slate-200 dark:hover:bg-slate-800 ${stale ? 'text-slate-400 dark:text-slate-600' : 'text-slate-600 dark:text-slate-300'}`}
      >
        <svg className="h-5 w-5" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">
          <path
            fillRule="evenodd"
            d="M10 2a6 6 0 00-6 6c0 1.887-.454 3.665-1.257 5.234a.75.75 0 00.515 1.076 32.91 32.91 0 003.256.508 3.5 3.5 0 006.972 0 32.903 32.903 0 003.256-.508.75.75 0 00.515-1.076A11.448 11.448 0 0116 8a6 6 0 00-6-6zM8.05 14.943a33.54 33.54 0 003.9 0 2 2 0 01-3.9 0z"
            clipRule="evenodd"
          />
        </svg>
        {n > 0 && (
          <span data-testid="alert-count" className={`absolute -right-1 -top-1 min-w-[1.125rem] rounded-full px-1 text-center text-[11px] font-semibold leading-[1.125rem] text-white ${badge}`}>
            {n > 99 ? '99+' : n}
          </span>
        )}
      </button>
      {open && <AlertDrawer alerts={query.data?.alerts ?? []} stale={stale} failed={query.isError && !query.data} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The drawer: open alerts, newest first; those the user dismissed below, still resolvable. */
function AlertDrawer({ alerts, stale, failed, onClose }: { alerts: SystemAlert[]; stale: boolean; failed: boolean; onClose: () => void }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const active = alerts.filter((a) => !a.dismissed);
  const dismissed = alerts.filter((a) => a.dismissed);
  return (
    <div className="fixed inset-0 z-50 bg-black/30" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside
        role="dialog"
        aria-modal="true"
        aria-label="System alerts"
        className="absolute inset-y-0 right-0 flex w-full flex-col bg-white shadow-xl sm:w-[26rem] dark:bg-slate-900"
      >
        <header className="flex items-center justify-between border-b border-slate-200 px-4 py-3 dark:border-slate-800">
          <h2 className="text-base font-semibold">
            System alerts <span className="text-sm font-normal text-slate-500 dark:text-slate-400">· {active.length} active</span>
          </h2>
          <button type="button" aria-label="Close alerts" onClick={onClose} className="rounded p-1 text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800">
            ✕
          </button>
        </header>
        <div className="flex-1 space-y-2 overflow-y-auto p-4">
          {stale && (
            <p className="rounded bg-slate-100 px-3 py-2 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">
              The server is not answering: these are the last known alerts.
            </p>
          )}
          {failed && <p className="text-sm text-red-600 dark:text-red-400">Alerts could not be loaded.</p>}
          {active.length === 0 && !failed && <p className="text-sm text-slate-500 dark:text-slate-400">No active alerts.</p>}
          {active.map((a) => (
            <AlertItem key={a.id} alert={a} />
          ))}
          {dismissed.length > 0 && (
            <details className="pt-2">
              <summary className="cursor-pointer text-sm text-slate-600 dark:text-slate-300">Dismissed by you ({dismissed.length})</summary>
              <div className="mt-2 space-y-2 opacity-75">
                {dismissed.map((a) => (
                  <AlertItem key={a.id} alert={a} />
                ))}
              </div>
            </details>
          )}
          <p className="pt-2 text-xs text-slate-500 dark:text-slate-400">
            Dismiss hides an alert for you only, until it happens again. Resolve closes it for everyone.
          </p>
        </div>
      </aside>
    </div>
  );
}

function AlertItem({ alert: a }: { alert: SystemAlert }) {
  const dismiss = useAlertAction('dismiss');
  const resolve = useAlertAction('resolve');
  const s = severityStyle(a.severity);
  const err = dismiss.error ?? resolve.error;
  const small = 'rounded px-2 py-1 text-xs font-medium disabled:opacity-50';
  return (
    <article role="listitem" aria-label={a.title} className={`rounded-lg border p-3 ${s.box}`}>
      <div className="flex items-start gap-2">
        <SeverityIcon severity={a.severity} />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-slate-900 dark:text-slate-100">
            {a.title}
            {a.count > 1 && <span className="ml-2 text-xs font-normal text-slate-500 dark:text-slate-400">×{a.count}</span>}
          </p>
          <p className="mt-0.5 break-words text-sm text-slate-700 dark:text-slate-300">{a.message}</p>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {s.label} · {a.component || 'system'} · {formatDateTime(a.last_seen)}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            {!a.dismissed && (
              <button
                type="button"
                disabled={dismiss.isPending}
                onClick={() => dismiss.mutate(a.id)}
                className={`${small} border border-slate-300 text-slate-700 hover:bg-white/60 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800`}
              >
                {dismiss.isPending ? 'Dismissing...' : 'Dismiss'}
              </button>
            )}
            {canResolve(a.severity) && (
              <button
                type="button"
                disabled={resolve.isPending}
                onClick={() => resolve.mutate(a.id)}
                className={`${small} bg-slate-900 text-white hover:bg-slate-700 dark:bg-slate-100 dark:text-slate-900 dark:hover:bg-slate-300`}
              >
                {resolve.isPending ? 'Resolving...' : 'Resolve'}
              </button>
            )}
          </div>
          {err && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{err.message}</p>}
        </div>
      </div>
    </article>
  );
}
