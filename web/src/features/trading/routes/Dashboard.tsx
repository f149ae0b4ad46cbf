import { useState } from 'react';
import { btn, Modal, Stat } from '@/components/Modal';
import { ScreenHeader } from '@/components/Screen';
import { formatShare, formatSignedMoney, formatMoney, pnlClass } from '@/lib/format';
import { useDashboardPrefs } from '@/lib/prefs';
import { usePerformance, useSystemStatus } from '../api';
import { TradingForm } from '../components/TradingForm';
import { PriceCard, RecentTrades, SystemStatusCard, TradingMetricsCard, useStatusStale } from '../components/DashboardCards';
import { PriceChart } from '../components/PriceChart';
import { Watchlist } from '../components/Watchlist';
import { useChartView } from '../useChartView';
import { healthBadge } from '../status';
import { PollEvery } from '../poll';

/** Every card below polls at the dashboard refresh interval setting (where it polls at all). */
export default function Dashboard() {
  const { refreshMs } = useDashboardPrefs();
  return (
    <PollEvery.Provider value={refreshMs}>
      <DashboardCards />
    </PollEvery.Provider>
  );
}

function DashboardCards() {
  const [quick, setQuick] = useState(false);
  const perf = usePerformance();
  const status = useSystemStatus();
  const stale = useStatusStale() !== null;
  const halted = status.data?.trading_engine.trading_halted === true;
  const healthy = status.data?.overall_status === 'healthy';
  const badge = healthBadge({ stale, halted, healthy });
  const p = perf.data;
  const show = useDashboardPrefs();
  const view = useChartView();
  return (
    <>
      <ScreenHeader title="Trading Dashboard" subtitle="Live market, account and system at a glance">
        {status.data && (
          <span data-testid="health-badge" className={`rounded-full px-3 py-1 text-xs font-semibold ${badge.cls}`}>
            {badge.text}
          </span>
        )}
        <button type="button" className={btn.primary} onClick={() => setQuick(true)}>
          New Trade
        </button>
      </ScreenHeader>

      {show.showMetrics && (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Stat testId="card-portfolio-value" label="Portfolio Value" value={p ? formatMoney(p.portfolio_value) : '—'} sub={p ? `Exposure ${formatMoney(p.total_exposure)}` : undefined} />
          <Stat testId="card-daily-pnl" label="Daily P&L" value={p ? formatSignedMoney(p.daily_pnl) : '—'} valueClass={pnlClass(p?.daily_pnl)} />
          <Stat testId="card-active-positions" label="Active Positions" value={p ? p.active_positions : '—'} sub={p ? `${p.pending_orders} open order(s)` : undefined} />
          <Stat testId="card-total-trades" label="Total Trades" value={p ? p.total_trades : '—'} sub={p && p.total_trades ? `Win rate ${formatShare(p.win_rate)}` : undefined} />
        </div>
      )}

      {/* On a phone the watchlist comes first, above the chart it switches; on a wide screen it heads the right column. */}
      <div className="mt-6 grid gap-4 lg:grid-cols-3 lg:grid-rows-[auto_1fr]">
        <div className="lg:col-start-3 lg:row-start-1">
          <Watchlist selected={view.symbol} onSelect={view.setSymbol} />
        </div>
        <div className="min-w-0 space-y-4 lg:col-span-2 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          {show.showCharts && <PriceChart symbol={view.symbol} timeframe={view.tf} onSymbol={view.setSymbol} onTimeframe={view.setTimeframe} />}
          {show.showRecentTrades && <RecentTrades refreshMs={show.refreshMs} />}
        </div>
        <div className="space-y-4 lg:col-start-3 lg:row-start-2">
          <PriceCard symbol={view.symbol} />
          <SystemStatusCard />
          <TradingMetricsCard />
        </div>
      </div>

      {quick && (
        <Modal title="Quick Trade" onClose={() => setQuick(false)}>
          <TradingForm onExecuted={() => setQuick(false)} />
        </Modal>
      )}
    </>
  );
}
