import { ErrorBox } from '@/components/Field';
import { Row, Stat } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatPercent, formatShare, formatSignedMoney, formatMoney, pnlClass, toNum } from '@/lib/format';
import { usePerformance, usePortfolio } from '../api';
import { BalancesCard } from './BalancesCard';
import { PortfolioValueChart } from './PortfolioValueChart';
import { riskLevel, riskWarning, TRADES_NOTE, winRateClass } from '../risk';

export function PortfolioOverview() {
  const portfolio = usePortfolio();
  const perf = usePerformance();
  if (portfolio.isPending) return <Spinner />;
  if (portfolio.isError) return <ErrorBox message={errorMessage(portfolio.error, 'Failed to fetch portfolio')} />;
  const p = portfolio.data;
  const value = toNum(p.total_value);
  const totalPnl = toNum(p.total_unrealized_pnl) + toNum(p.total_realized_pnl);
  const base = value - totalPnl;
  const totalPct = base > 0 ? (totalPnl / base) * 100 : 0;
  const largest = toNum(p.diversification?.largest_position_percentage);
  const exposure = toNum(p.total_exposure);
  const level = riskLevel(largest);
  const positions = p.positions.filter((x) => toNum(x.quantity) !== 0);

  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-500 dark:text-slate-400">Last updated: {formatDateTime(p.last_updated)}</p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Portfolio Value" value={formatMoney(value)} sub={`Cash ${formatMoney(p.cash_balance)}`} />
        <Stat label="Total P&L" value={formatSignedMoney(totalPnl)} valueClass={pnlClass(totalPnl)} sub={formatPercent(totalPct)} />
        <Stat label="Daily P&L" value={formatSignedMoney(p.daily_pnl)} valueClass={pnlClass(p.daily_pnl)} />
        <Stat label="Active Positions" value={p.positions_count} />
      </div>

      {riskWarning(largest, exposure, value) && (
        <div role="alert" className="rounded border border-amber-400 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
          <strong>Risk Warning:</strong> {largest > 50 ? `your largest position is ${formatShare(largest)} of the portfolio.` : ''}{' '}
          {value > 0 && exposure / value > 0.8 ? `Exposure is ${formatShare((exposure / value) * 100)} of portfolio value.` : ''} Consider diversifying.
        </div>
      )}

      <PortfolioValueChart />

      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="P&L Breakdown">
          <Row label="Unrealized P&L">
            <span className={pnlClass(p.total_unrealized_pnl)}>{formatSignedMoney(p.total_unrealized_pnl)}</span>
          </Row>
          <Row label="Realized P&L">
            <span className={pnlClass(p.total_realized_pnl)}>{formatSignedMoney(p.total_realized_pnl)}</span>
          </Row>
          <Row label="Daily P&L">
            <span className={pnlClass(p.daily_pnl)}>{formatSignedMoney(p.daily_pnl)}</span>
          </Row>
          <Row label="Weekly P&L">
            <span className={pnlClass(p.weekly_pnl)}>{formatSignedMoney(p.weekly_pnl)}</span>
          </Row>
        </Card>
        <Card title="Trading Performance">
          {perf.data ? (
            <>
              <Row label="Total Trades">{perf.data.total_trades}</Row>
              <Row label="Successful">{perf.data.successful_trades}</Row>
              <Row label="Failed">{perf.data.failed_trades}</Row>
              <Row label="Win Rate">
                <span className={perf.data.total_trades ? winRateClass(perf.data.win_rate) : ''}>{perf.data.total_trades ? formatShare(perf.data.win_rate) : '—'}</span>
              </Row>
              <Row label="Pending Orders">{perf.data.pending_orders}</Row>
              <p className="pt-1 text-xs text-slate-500 dark:text-slate-400">{TRADES_NOTE}</p>
            </>
          ) : (
            <Spinner />
          )}
        </Card>
        <Card title="Risk Analysis">
          <Row label="Risk Level">
            <span data-testid="risk-level" className={level === 'High' ? 'text-red-600' : level === 'Medium' ? 'text-amber-600' : 'text-emerald-600'}>
              {level}
            </span>
          </Row>
          <Row label="Largest Position">{formatShare(largest)}</Row>
          <Row label="Total Exposure">{formatMoney(exposure)}</Row>
          <Row label="Exposure / Value">{formatShare(value > 0 ? (exposure / value) * 100 : 0)}</Row>
          <Row label="Assets Held">{p.diversification?.symbols ?? 0}</Row>
        </Card>
      </div>

      <BalancesCard />

      <Card title="Position Breakdown">
        {positions.length === 0 ? (
          <p className="py-6 text-center text-slate-500 dark:text-slate-400">No active positions</p>
        ) : (
          <ul className="space-y-3">
            {positions.map((x) => {
              const share = value > 0 ? (toNum(x.current_value) / value) * 100 : 0;
              return (
                <li key={x.symbol}>
                  <div className="flex justify-between text-sm">
                    <span className="font-semibold">{x.symbol}</span>
                    <span className="tabular-nums">
                      {formatMoney(x.current_value)} · {formatShare(share)} · <span className={pnlClass(x.unrealized_pnl)}>{formatSignedMoney(x.unrealized_pnl)}</span>
                    </span>
                  </div>
                  <div className="mt-1 h-2 rounded bg-slate-100 dark:bg-slate-800">
                    <div className="h-2 rounded bg-blue-500" style={{ width: `${Math.min(100, share)}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Card>
    </div>
  );
}
