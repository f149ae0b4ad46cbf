import { useState } from 'react';
import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { formatShare } from '@/lib/format';
import { metricOf, OBJECTIVES, show, sortTrials, valueOf, type SortKey } from '../model';
import type { SweepTrial } from '../types';

const METRICS: { key: string; label: string; pct?: boolean }[] = [
  { key: 'total_return', label: 'Return', pct: true },
  { key: 'sharpe_ratio', label: 'Sharpe' },
  { key: 'max_drawdown', label: 'Max DD', pct: true },
  { key: 'win_rate', label: 'Win rate', pct: true },
];

const pct = (v: number | null) => (v === null ? 'N/A' : formatShare(v * 100, 2));

/** Every finished trial: its values, the objective and the main metrics, sortable by any column; Save as new version on each. */
export function TrialsTable({ trials, names, objective, best, onSave }: { trials: SweepTrial[]; names: string[]; objective: string; best: number | null; onSave: (t: SweepTrial) => void }) {
  const [key, setKey] = useState<SortKey>('score');
  const [desc, setDesc] = useState(true);
  const rows = sortTrials(trials, key, desc);
  const head = (k: SortKey, label: string) => (
    <th key={k} className="px-2 py-1 text-left">
      <button
        type="button"
        className="font-semibold hover:underline"
        aria-sort={key === k ? (desc ? 'descending' : 'ascending') : undefined}
        onClick={() => {
          if (key === k) setDesc(!desc);
          else {
            setKey(k);
            setDesc(true);
          }
        }}
      >
        {label}
        {key === k ? (desc ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
  const objLabel = OBJECTIVES.find((o) => o.value === objective)?.label ?? objective;
  return (
    <Card title={`Trials (${trials.length})`}>
      <div className="max-h-[28rem] overflow-auto">
        <table className="w-full text-sm" data-testid="trials-table">
          <thead className="sticky top-0 bg-white dark:bg-slate-900">
            <tr>
              {head('index', '#')}
              {names.map((n) => (
                <th key={n} className="px-2 py-1 text-left">
                  <button type="button" className="font-semibold hover:underline" onClick={() => (key === `param:${n}` ? setDesc(!desc) : (setKey(`param:${n}`), setDesc(true)))}>
                    {n.replace(/^indicators\./, '')}
                    {key === `param:${n}` ? (desc ? ' ▼' : ' ▲') : ''}
                  </button>
                </th>
              ))}
              {head('score', objLabel)}
              {METRICS.map((m) => head(`metric:${m.key}`, m.label))}
              {head('trades', 'Trades')}
              <th className="px-2 py-1" />
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={t.index} className={`border-t border-slate-100 dark:border-slate-800 ${t.index === best ? 'bg-blue-50 dark:bg-blue-950' : ''} ${t.eligible ? '' : 'text-slate-400'}`} title={t.note}>
                <td className="px-2 py-1 font-mono">
                  {t.index}
                  {t.index === best && <span className="ml-1 text-xs font-semibold text-blue-600">best</span>}
                  {t.halted && (
                    <span
                      data-testid="trial-halted"
                      title={`${t.halted.reason} on ${t.halted.at.slice(0, 10)}: ${t.halted.refused} signals refused, ${t.halted.untraded_days} of ${t.halted.total_days} days untraded`}
                      className="ml-1 whitespace-nowrap rounded bg-red-100 px-1 text-xs font-semibold text-red-700 dark:bg-red-950 dark:text-red-300"
                    >
                      halted {t.halted.at.slice(0, 10)}
                    </span>
                  )}
                </td>
                {names.map((n) => (
                  <td key={n} className="px-2 py-1 font-mono">
                    {show(valueOf(t, n))}
                  </td>
                ))}
                <td className="px-2 py-1 font-mono">{show(t.score)}</td>
                {METRICS.map((m) => (
                  <td key={m.key} className="px-2 py-1 font-mono">
                    {m.pct ? pct(metricOf(t, m.key)) : show(metricOf(t, m.key), 3)}
                  </td>
                ))}
                <td className="px-2 py-1 font-mono">{t.trades}</td>
                <td className="px-2 py-1">
                  <button type="button" className={`${btn.small} whitespace-nowrap`} onClick={() => onSave(t)}>
                    Save as new version
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        Greyed trials are not eligible (hover for why). Halted: a risk limit (the maximum drawdown) stopped the trial's trading for good on that day, so its figures are those of
        an idle account after it; a halted trial is never the best while one that traded to the end is eligible. Metrics are each trial's backtest report over the whole period.
      </p>
    </Card>
  );
}
