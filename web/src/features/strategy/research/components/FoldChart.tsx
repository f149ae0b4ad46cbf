import { Card } from '@/components/Screen';
import { formatNumber, formatShare } from '@/lib/format';
import { show } from '../model';
import type { Sweep, WalkForwardFold } from '../types';
import { StitchedChart } from './StitchedChart';
import { maxOf } from '@/lib/extent';

const ret = (m: unknown): number | null => {
  const v = (m as Record<string, unknown> | null)?.total_return;
  return typeof v === 'number' ? v : null;
};
const pct = (v: number | null | undefined) => (v === null || v === undefined ? 'N/A' : formatShare(v * 100, 2));

/** A fold's chosen values, short: "rsi_period 21, sma_long 20". */
const chosen = (v: unknown) =>
  Object.entries((v ?? {}) as Record<string, unknown>)
    .map(([k, x]) => `${k.replace(/^indicators\./, '')} ${show(x)}`)
    .join(', ');

/** In-sample against out-of-sample total return, fold by fold, as bars on one scale (zero in the middle). */
function FoldBars({ folds }: { folds: WalkForwardFold[] }) {
  const vals = folds.flatMap((f) => [ret(f.in_sample), ret(f.out_of_sample)]).filter((v): v is number => v !== null);
  const scale = maxOf(vals.map(Math.abs), 1e-9);
  const bar = (v: number | null, color: string, label: string) => (
    <div className="flex items-center gap-2 text-xs">
      <span className="w-8 shrink-0 text-slate-500">{label}</span>
      <div className="relative h-3 flex-1 rounded bg-slate-100 dark:bg-slate-800">
        <span className="absolute inset-y-0 left-1/2 w-px bg-slate-400" />
        {v !== null && (
          <span className="absolute inset-y-0 rounded" style={{ background: color, left: v >= 0 ? '50%' : `${50 - (Math.abs(v) / scale) * 50}%`, width: `${(Math.abs(v) / scale) * 50}%` }} />
        )}
      </div>
      <span className="w-16 shrink-0 text-right font-mono">{pct(v)}</span>
    </div>
  );
  return (
    <div className="space-y-3" data-testid="fold-bars">
      {folds.map((f) => (
        <div key={f.fold}>
          <p className="text-xs">
            <strong>Fold {f.fold + 1}</strong> · IS {f.in_sample_period.start} → {f.in_sample_period.end} · OOS {f.out_of_sample_period.start} → {f.out_of_sample_period.end}
            {f.trial !== null ? ` · trial ${f.trial} (${chosen(f.values)})` : ''} {f.status !== 'completed' && <em className="text-slate-500">({f.status.replace(/_/g, ' ')})</em>}
          </p>
          {bar(ret(f.in_sample), '#3b82f6', 'IS')}
          {bar(ret(f.out_of_sample), '#f59e0b', 'OOS')}
        </div>
      ))}
    </div>
  );
}

/** Walk-forward: each fold's IS vs OOS, the stitched out-of-sample equity, efficiency, stability and the deflated Sharpe ratio. */
export function FoldChart({ sweep }: { sweep: Sweep }) {
  const folds = sweep.folds ?? [];
  if (!sweep.walk_forward || folds.length === 0) return null;
  const capital = String((sweep.request as { initial_capital?: unknown }).initial_capital ?? '0');
  const ds = sweep.deflated_sharpe;
  const stab = Object.entries(sweep.parameter_stability ?? {});
  return (
    <Card title={`Walk-forward (${sweep.walk_forward.mode}, ${sweep.walk_forward.folds} folds, ${Math.round(sweep.walk_forward.in_sample_fraction * 100)}% in sample)`}>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <FoldBars folds={folds} />
        <div className="min-w-0">
          <StitchedChart points={sweep.stitched_equity ?? []} capital={capital} />
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            Out-of-sample equity of the folds chained, each starting with the equity the previous one ended with: {pct(sweep.stitched_return)}. Each fold is its own backtest, so
            its risk limits start afresh: the maximum drawdown is measured from the fold's own start, never from the chained curve's peak, and a fold may trade where one run over
            the whole period would have halted.
          </p>
        </div>
      </div>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-3" data-testid="wf-figures">
        <div>
          <dt className="text-xs text-slate-500">Walk-forward efficiency</dt>
          <dd className="font-mono">{sweep.walk_forward_efficiency === null || sweep.walk_forward_efficiency === undefined ? 'N/A' : formatNumber(sweep.walk_forward_efficiency, 3)}</dd>
          <dd className="text-xs text-slate-500">Mean OOS annualised return over mean IS</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Deflated Sharpe ratio</dt>
          <dd className="font-mono">{ds?.probability === null || ds?.probability === undefined ? 'N/A' : formatShare(ds.probability * 100, 1)}</dd>
          <dd className="text-xs text-slate-500">
            {ds ? `P(true Sharpe > 0) of trial ${ds.trial} (Sharpe ${formatNumber(ds.sharpe_annualised, 2)}) after ${ds.trials} trials` : 'After the sweep completes'}
          </dd>
          <dd className="text-xs text-slate-500" data-testid="dsr-trials-note">
            The {ds ? `${ds.trials} ` : ''}trials count as independent, though neighbouring grid points are correlated: the penalty for the search is then larger than its effective number
            of trials would give, so the probability errs low.
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Parameter stability</dt>
          {stab.length === 0 && <dd className="text-xs text-slate-500">When folds have chosen</dd>}
          {stab.map(([n, s]) => (
            <dd key={n} className="text-xs">
              <code>{n.replace(/^indicators\./, '')}</code>: {show(s.modal_value)} in {Math.round(s.modal_share * 100)}% of folds, dispersion {show(s.dispersion, 3)}
            </dd>
          ))}
        </div>
      </dl>
      {(sweep.notes ?? []).map((n) => (
        <p key={n} className="mt-2 text-xs text-amber-700 dark:text-amber-400">
          {n}
        </p>
      ))}
    </Card>
  );
}
