import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { formatDate, formatDateTime, formatPercent, pnlClass } from '@/lib/format';
import { describeOverrides } from '../overrides';
import { useBacktestRuns } from '../api';
import type { BacktestRun } from '../types';

/** How a run that has no report yet (or never will) is marked. */
const STATUS_CLASS: Record<string, string> = {
  queued: 'text-slate-500 dark:text-slate-400',
  running: 'text-blue-600 dark:text-blue-400',
  cancelled: 'text-slate-500 dark:text-slate-400',
  failed: 'text-red-600 dark:text-red-400',
};

/** Past runs, newest first, each with its return and its overrides: click one to open it, tick two to compare them. */
export function RunHistory({ selected, onOpen, picked, onPick, onCompare }: { selected: string | null; onOpen: (run: BacktestRun) => void; picked: string[]; onPick: (id: string) => void; onCompare: () => void }) {
  const runs = useBacktestRuns();
  return (
    <Card
      title={
        <span className="flex items-center justify-between">
          <span>Run History</span>
          <button type="button" className={`${btn.small} normal-case tracking-normal`} disabled={picked.length !== 2} onClick={onCompare}>
            Compare
          </button>
        </span>
      }
    >
      {runs.isPending && <Spinner />}
      {runs.isError && <p className="text-sm text-red-600 dark:text-red-400">Failed to load past backtests</p>}
      {runs.data?.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">No backtests yet.</p>}
      {runs.data && runs.data.length > 0 && <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">Open a run, or tick two and press Compare.</p>}
      <ul className="max-h-96 space-y-1 overflow-auto" aria-label="Past backtests">
        {runs.data?.map((r) => (
          <li key={r.id} className={`flex items-start gap-2 rounded px-2 py-1.5 ${selected === r.id ? 'bg-blue-50 dark:bg-blue-950' : 'hover:bg-slate-50 dark:hover:bg-slate-800/60'}`} data-testid="bt-history-row">
            <input type="checkbox" className="mt-1" aria-label={`Compare run ${r.id.slice(0, 8)}`} checked={picked.includes(r.id)} onChange={() => onPick(r.id)} />
            <button type="button" className="min-w-0 flex-1 text-left text-sm" onClick={() => onOpen(r)} aria-current={selected === r.id || undefined}>
              <span className="flex items-baseline justify-between gap-2">
                <span className="min-w-0 break-words">
                  <span className="font-medium">{r.strategy_name}</span> · {r.symbol}
                  {r.status !== 'completed' && (
                    <span className={`ml-1 text-xs ${STATUS_CLASS[r.status] ?? 'text-red-600 dark:text-red-400'}`} data-testid="bt-history-status">
                      ({r.status === 'running' ? `running ${Math.floor(r.progress * 100)}%` : r.status})
                    </span>
                  )}
                </span>
                {r.total_return != null && (
                  <span className={`shrink-0 whitespace-nowrap font-semibold tabular-nums ${pnlClass(r.total_return)}`} data-testid="bt-history-return">
                    {formatPercent(r.total_return * 100)}
                  </span>
                )}
              </span>
              <span className="block text-xs text-slate-500 dark:text-slate-400">
                {formatDate(r.request.start_date.slice(0, 10))} → {formatDate(r.request.end_date.slice(0, 10))} · ran {formatDateTime(r.created_at)}
              </span>
              <span className="block break-words text-xs text-slate-500 dark:text-slate-400" data-testid="bt-history-overrides">
                {describeOverrides(r.request.params as Record<string, unknown> | undefined) ? `Overrides: ${describeOverrides(r.request.params as Record<string, unknown> | undefined)}` : 'Saved settings'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
