import { Card } from '@/components/Screen';
import { formatCount, formatMoney, formatShare } from '@/lib/format';
import { MC_METHODS } from '../model';
import type { BacktestReport } from '../types';

type MonteCarlo = NonNullable<BacktestReport['monte_carlo']>;

const LEVELS = [
  ['p5', '5th (bad luck)'],
  ['p25', '25th'],
  ['p50', 'Median'],
  ['p75', '75th'],
  ['p95', '95th (good luck)'],
] as const;

/**
 * The Monte Carlo of a run's closed trades: the spread of the final equity
 * and of the largest drawdown over many replayed trade sequences, the share
 * of them that hit the ruin threshold, and what the figures assume.
 */
export function MonteCarloCard({ mc, initial }: { mc: MonteCarlo; initial: string }) {
  const method = MC_METHODS.find((m) => m.value === mc.method);
  return (
    <Card title="Monte Carlo of the Trades">
      <div data-testid="bt-mc">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {formatCount(mc.runs)} runs, {method?.label.toLowerCase() ?? mc.method}, seed {mc.seed}: each run replays {formatCount(mc.trades)} closed trade
          {mc.trades === 1 ? '' : 's'} from {formatMoney(initial)}.
        </p>
        <table className="mt-3 w-full text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
              <th className="py-1 font-medium">Percentile of runs</th>
              <th className="py-1 text-right font-medium">Final equity</th>
              <th className="py-1 text-right font-medium">Max drawdown</th>
            </tr>
          </thead>
          <tbody>
            {LEVELS.map(([k, label]) => (
              <tr key={k} className="border-b border-slate-100 dark:border-slate-800/60" data-testid={`bt-mc-${k}`}>
                <td className="py-1">{label}</td>
                <td className="py-1 text-right tabular-nums">{formatMoney(mc.final_equity[k])}</td>
                <td className="py-1 text-right tabular-nums">{formatShare(mc.max_drawdown[k] * 100, 2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-3 text-sm" data-testid="bt-mc-ruin">
          Risk of ruin: <span className="font-semibold">{formatShare(mc.risk_of_ruin * 100, 1)}</span> of runs fell {formatShare(mc.ruin_drawdown * 100, 0)} or more below
          their peak at some point.
        </p>
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400" data-testid="bt-mc-assumes">
          {method?.hint} Assumes the trades are independent of one another and of their order; equity is counted at each trade&apos;s exit (not candle by candle), with
          the sizes the backtest traded, so these drawdowns can be smaller than the report&apos;s. A position still open at the end is left out.
        </p>
      </div>
    </Card>
  );
}
