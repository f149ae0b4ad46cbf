import type { ReactNode } from 'react';
import { Card } from '@/components/Screen';
import { errorMessage } from '@/lib/api';
import { NO_DATA } from '../model';

/** A headline figure; hint is the definition shown on hover. */
export function Stat({ label, value, hint, className = '', sub }: { label: string; value: string; hint?: string; className?: string; sub?: ReactNode }) {
  return (
    <Card>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</p>
      <p className={`mt-1 text-2xl font-semibold tabular-nums ${className} ${hint ? 'cursor-help underline decoration-dotted decoration-slate-400 underline-offset-4' : ''}`} title={hint} data-testid={`stat-${label}`}>
        {value}
      </p>
      {sub && <div className="mt-1 text-xs text-slate-500 dark:text-slate-400">{sub}</div>}
    </Card>
  );
}

export function StatGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">{children}</div>;
}

/** A label and value line of a detail list. */
export function Line({ label, value, hint, className = '' }: { label: string; value: string; hint?: string; className?: string }) {
  return (
    <div className="flex justify-between gap-4 border-b border-slate-100 py-1.5 text-sm last:border-0 dark:border-slate-800">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={`font-medium tabular-nums ${className} ${hint ? 'cursor-help underline decoration-dotted decoration-slate-400 underline-offset-4' : ''}`} title={hint} data-testid={`line-${label}`}>
        {value}
      </dd>
    </div>
  );
}

export function NoData() {
  return <p className="py-8 text-center text-sm text-slate-500 dark:text-slate-400">{NO_DATA}</p>;
}

/** 'Error Loading Data' with the tab's message (and the server's reason, if any) and Retry. */
export function TabError({ message, error, onRetry }: { message: string; error: unknown; onRetry: () => void }) {
  const reason = errorMessage(error, '');
  return (
    <Card>
      <div role="alert" className="py-10 text-center">
        <p className="text-lg font-semibold text-red-600 dark:text-red-400">Error Loading Data</p>
        <p className="mt-2 text-sm">{message}</p>
        {reason && reason !== message && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{reason}</p>}
        <button type="button" onClick={onRetry} className="mt-4 rounded bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700">
          Retry
        </button>
      </div>
    </Card>
  );
}

export function Table({ head, children, testId }: { head: { label: string; right?: boolean; hint?: string }[]; children: ReactNode; testId?: string }) {
  return (
    <div className="overflow-x-auto" data-testid={testId}>
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
            {head.map((h) => (
              <th key={h.label} title={h.hint} className={`py-2 pr-3 ${h.right ? 'text-right' : ''} ${h.hint ? 'cursor-help' : ''}`}>
                {h.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="tabular-nums">{children}</tbody>
      </table>
    </div>
  );
}

export const td = 'py-2 pr-3';
export const tdR = 'py-2 pr-3 text-right';
export const trCls = 'border-b border-slate-100 dark:border-slate-800';
