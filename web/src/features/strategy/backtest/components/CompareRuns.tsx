import type { ReactNode } from 'react';
import { btn } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { formatDate, formatMoney, formatPercent, formatSignedMoney } from '@/lib/format';
import { useBacktestPair } from '../api';
import { CompareEquity } from './CompareEquity';
import { derived, pct, ratio, signedPctOrNA } from '../model';
import type { BacktestReport } from '../types';

const signedPct = (f: number) => formatPercent(f * 100);

/** The key metrics of a run, in the order of the comparison. */
const METRICS: [string, (r: BacktestReport) => ReactNode][] = [
  ['Strategy', (r) => r.strategy_name],
  ['Symbol', (r) => r.symbol],
  ['Period', (r) => `${formatDate(r.start_date.slice(0, 10))} → ${formatDate(r.end_date.slice(0, 10))}`],
  ['Timeframe', (r) => r.assumptions.timeframe],
  ['Parameter Overrides', (r) => (r.request.params ? <code className="break-all text-xs">{JSON.stringify(r.request.params)}</code> : 'none')],
  ['Initial Capital', (r) => formatMoney(r.initial_equity)],
  ['Total Return', (r) => signedPct(r.total_return)],
  ['Buy & Hold Return', (r) => signedPct(r.buy_and_hold_return)],
  ['Final Value', (r) => derived(r).finalValue],
  ['Total Trades', (r) => r.total_trades],
  ['Win Rate', (r) => pct(r.win_rate, 1)],
  ['Max Drawdown', (r) => pct(r.max_drawdown)],
  ['Sharpe Ratio', (r) => ratio(r.sharpe_ratio)],
  ['Sortino Ratio', (r) => ratio(r.sortino_ratio)],
  ['CAGR', (r) => signedPctOrNA(r.cagr)],
  ['Profit Factor', (r) => derived(r).profitFactor],
  ['Expectancy', (r) => formatSignedMoney(r.expectancy)],
  ['Exposure Time', (r) => pct(r.exposure_time, 1)],
  ['Fees Paid', (r) => formatMoney(r.fees_paid)],
];

/** Two stored runs: their equity curves overlaid, then their metrics side by side. */
export function CompareRuns({ ids, onClose }: { ids: [string, string]; onClose: () => void }) {
  const [qa, qb] = useBacktestPair(ids);
  const failed = qa?.isError || qb?.isError;
  const loaded = !!qa?.data && !!qb?.data;
  /** Only completed runs have a report to compare. */
  const a = qa?.data?.report;
  const b = qb?.data?.report;
  return (
    <Card
      title={
        <span className="flex items-center justify-between">
          <span>Compare Runs</span>
          <button type="button" className={`${btn.small} normal-case tracking-normal`} onClick={onClose}>
            Close
          </button>
        </span>
      }
    >
      {failed && <p className="text-sm text-red-600 dark:text-red-400">Failed to load a run to compare</p>}
      {!failed && !loaded && <Spinner />}
      {loaded && (!a || !b) && <p className="text-sm text-slate-500 dark:text-slate-400">Only completed runs can be compared.</p>}
      {a && b && <CompareEquity runs={[a, b]} />}
      {a && b && (
        <table className="w-full text-sm" aria-label="Run comparison">
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
              <th className="py-2 font-medium">Metric</th>
              <th className="py-2 pl-3 text-right font-medium">Run A · {a.id.slice(0, 8)}</th>
              <th className="py-2 pl-3 text-right font-medium">Run B · {b.id.slice(0, 8)}</th>
            </tr>
          </thead>
          <tbody>
            {METRICS.map(([label, f]) => (
              <tr key={label} className="border-b border-slate-100 dark:border-slate-800/60">
                <td className="py-1.5 text-slate-500 dark:text-slate-400">{label}</td>
                <td className="py-1.5 pl-3 text-right font-medium tabular-nums [overflow-wrap:anywhere]">{f(a)}</td>
                <td className="py-1.5 pl-3 text-right font-medium tabular-nums [overflow-wrap:anywhere]">{f(b)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
