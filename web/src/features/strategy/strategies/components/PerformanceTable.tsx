import { DataTable, type Column } from '@/components/DataTable';
import { Spinner } from '@/components/Spinner';
import { formatCount, formatMoney, formatNumber, formatShare, formatSignedMoney, pnlClass } from '@/lib/format';
import { useStrategyPerformance } from '../api';
import { MSG, winRateClass } from '../model';
import type { StrategyPerformance } from '../types';

const COLUMNS: Column<StrategyPerformance>[] = [
  { header: 'Strategy', cell: (p) => p.strategy_name, title: true },
  { header: 'Total Trades', cell: (p) => formatCount(p.total_trades), right: true },
  { header: 'Winning', cell: (p) => formatCount(p.winning_trades), right: true },
  { header: 'Win Rate', cell: (p) => (p.total_trades ? formatShare(p.win_rate, 1) : '—'), className: (p) => (p.total_trades ? winRateClass(p.win_rate / 100) : ''), right: true },
  { header: 'Realized P&L', cell: (p) => formatSignedMoney(p.realized_pnl), className: (p) => pnlClass(p.realized_pnl), right: true },
  { header: 'Unrealized P&L', cell: (p) => formatSignedMoney(p.unrealized_pnl), className: (p) => pnlClass(p.unrealized_pnl), right: true },
  { header: 'Total P&L', cell: (p) => formatSignedMoney(p.total_pnl), className: (p) => `font-semibold ${pnlClass(p.total_pnl)}`, right: true },
  { header: 'Max Drawdown', cell: (p) => formatMoney(p.max_drawdown), right: true },
  { header: 'Sharpe Ratio', cell: (p) => (p.total_trades ? formatNumber(p.sharpe_ratio, 2) : '—'), right: true },
];

/** Per-strategy performance from the strategies' own fills (realized and unrealized P&L in USD). */
export function PerformanceTable() {
  const perf = useStrategyPerformance();
  // A failed load is only logged (spec section 8).
  if (perf.error) console.error('strategy performance', perf.error);
  if (perf.isLoading) return <Spinner />;
  const rows = perf.data ?? [];
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{MSG.noPerformance}</p>;
  return (
    <div>
      <DataTable label="Strategy performance" rows={rows} columns={COLUMNS} rowKey={(p) => p.strategy_name} rowTestId="performance-row" />
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        From each strategy&apos;s own fills: a trade is a closed round trip (flat to flat); win rate is the trips with net P&amp;L after fees above zero over all closed trips; unrealized P&amp;L is the open position at the current price.
      </p>
    </div>
  );
}
