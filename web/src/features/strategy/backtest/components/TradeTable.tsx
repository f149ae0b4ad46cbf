import { Card } from '@/components/Screen';
import { formatDateTime, formatMoney, formatPrice, formatQty, formatSignedMoney, pnlClass } from '@/lib/format';
import { reasonLabel } from '../model';
import type { BacktestTrade } from '../types';

/** Every closed round trip of the run. */
export function TradeTable({ trades, symbol }: { trades: BacktestTrade[]; symbol?: string }) {
  return (
    <Card title={`Trades (${trades.length})`}>
      {trades.length === 0 ? (
        <p className="py-4 text-center text-sm text-slate-500 dark:text-slate-400">No trades in this period</p>
      ) : (
        <div className="max-h-96 overflow-auto">
          <table className="w-full text-sm" aria-label="Backtest trades">
            <thead className="sticky top-0 bg-white dark:bg-slate-900">
              <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-500 dark:border-slate-800 dark:text-slate-400">
                <th className="px-2 py-2 font-medium">#</th>
                <th className="px-2 py-2 font-medium">Entry</th>
                <th className="px-2 py-2 font-medium">Exit</th>
                <th className="px-2 py-2 text-right font-medium">Entry Price</th>
                <th className="px-2 py-2 text-right font-medium">Exit Price</th>
                <th className="px-2 py-2 text-right font-medium">Quantity</th>
                <th className="px-2 py-2 text-right font-medium">Fees</th>
                <th className="px-2 py-2 text-right font-medium">P&amp;L</th>
                <th className="px-2 py-2 font-medium">Exit Reason</th>
              </tr>
            </thead>
            <tbody>
              {trades.map((t, i) => (
                <tr key={`${t.entry_time}-${i}`} className="border-b border-slate-100 tabular-nums dark:border-slate-800/60" data-testid="bt-trade-row">
                  <td className="px-2 py-1.5 text-slate-500">{i + 1}</td>
                  <td className="whitespace-nowrap px-2 py-1.5">{formatDateTime(t.entry_time)}</td>
                  <td className="whitespace-nowrap px-2 py-1.5">{formatDateTime(t.exit_time)}</td>
                  <td className="px-2 py-1.5 text-right">{formatPrice(t.entry_price, symbol)}</td>
                  <td className="px-2 py-1.5 text-right">{formatPrice(t.exit_price, symbol)}</td>
                  <td className="px-2 py-1.5 text-right">{formatQty(t.quantity)}</td>
                  <td className="px-2 py-1.5 text-right">{formatMoney(t.fees)}</td>
                  <td className={`px-2 py-1.5 text-right font-medium ${pnlClass(t.pnl)}`}>{formatSignedMoney(t.pnl)}</td>
                  <td className="px-2 py-1.5">{reasonLabel(t.exit_reason)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
