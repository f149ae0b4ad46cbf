import { Spinner } from '@/components/Spinner';
import { formatMoney, formatNumber, formatShare, formatSignedMoney, pnlClass } from '@/lib/format';
import { useStrategyPerformance } from '../api';
import { MSG, winRateClass } from '../model';

/** Per-strategy performance from the strategies' own fills (realized and unrealized P&L in USD). */
export function PerformanceTable() {
  const perf = useStrategyPerformance();
  // A failed load is only logged (spec section 8).
  if (perf.error) console.error('strategy performance', perf.error);
  if (perf.isLoading) return <Spinner />;
  const rows = perf.data ?? [];
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{MSG.noPerformance}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
            <th className="py-2 pr-3">Strategy</th>
            <th className="py-2 pr-3 text-right">Total Trades</th>
            <th className="py-2 pr-3 text-right">Winning</th>
            <th className="py-2 pr-3 text-right">Win Rate</th>
            <th className="py-2 pr-3 text-right">Realized P&amp;L</th>
            <th className="py-2 pr-3 text-right">Unrealized P&amp;L</th>
            <th className="py-2 pr-3 text-right">Total P&amp;L</th>
            <th className="py-2 pr-3 text-right">Max Drawdown</th>
            <th className="py-2 text-right">Sharpe Ratio</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.strategy_name} data-testid="performance-row" className="border-b border-slate-100 tabular-nums dark:border-slate-800">
              <td className="py-2 pr-3 font-medium">{p.strategy_name}</td>
              <td className="py-2 pr-3 text-right">{p.total_trades}</td>
              <td className="py-2 pr-3 text-right">{p.winning_trades}</td>
              <td className={`py-2 pr-3 text-right ${p.total_trades ? winRateClass(p.win_rate / 100) : ''}`}>{p.total_trades ? formatShare(p.win_rate, 1) : '—'}</td>
              <td className={`py-2 pr-3 text-right ${pnlClass(p.realized_pnl)}`}>{formatSignedMoney(p.realized_pnl)}</td>
              <td className={`py-2 pr-3 text-right ${pnlClass(p.unrealized_pnl)}`}>{formatSignedMoney(p.unrealized_pnl)}</td>
              <td className={`py-2 pr-3 text-right font-semibold ${pnlClass(p.total_pnl)}`}>{formatSignedMoney(p.total_pnl)}</td>
              <td className="py-2 pr-3 text-right">{formatMoney(p.max_drawdown)}</td>
              <td className="py-2 text-right">{p.total_trades ? formatNumber(p.sharpe_ratio, 2) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        From each strategy&apos;s own fills: a trade is a closed round trip (flat to flat); win rate is the trips with net P&amp;L after fees above zero over all closed trips; unrealized P&amp;L is the open position at the current price.
      </p>
    </div>
  );
}
