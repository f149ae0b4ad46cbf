import { useMemo } from 'react';
import { Card } from '@/components/Screen';
import { DEFINITIONS as D, money, num, percent, ratio, signClass, signedMoney, usdAxis, winRatePctClass } from '../model';
import type { TradingAnalytics } from '../types';
import { Donut, VBars } from './bars';
import { Line, NoData, Stat, StatGrid } from './common';
import { TimeSeries, type Series } from './TimeSeries';


export function TradingTab({ data }: { data: TradingAnalytics }) {
  const daily = useMemo<Series[]>(() => [{ name: 'Daily P&L', kind: 'histogram', color: '#10b981', signed: true, points: data.dailyPnL.map((d) => ({ date: d.date, value: d.pnl })) }], [data.dailyPnL]);
  const cumulative = useMemo<Series[]>(() => [{ name: 'Cumulative P&L', kind: 'area', color: '#3b82f6', points: data.dailyPnL.map((d) => ({ date: d.date, value: d.cumulative })) }], [data.dailyPnL]);
  return (
    <div className="space-y-6">
      <StatGrid>
        <Stat label="Win Rate" value={percent(data.winRate, 1)} hint={D.winRate} className={winRatePctClass(data.winRate)} sub={`${data.winningTrades} of ${data.totalTrades} trades`} />
        <Stat label="Total P&L" value={signedMoney(data.totalPnL)} hint={D.totalPnL} className={signClass(data.totalPnL)} />
        <Stat label="Sharpe Ratio" value={ratio(data.sharpeRatio)} hint={D.tradeSharpe} />
        <Stat label="Max Drawdown" value={money(data.maxDrawdown)} hint={D.tradeDrawdown} className={num(data.maxDrawdown) ? 'text-red-600 dark:text-red-400' : ''} />
      </StatGrid>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Daily P&L">{data.dailyPnL.length ? <TimeSeries series={daily} format={usdAxis} testId="chart-daily-pnl" /> : <NoData />}</Card>
        <Card title="Cumulative P&L">{data.dailyPnL.length ? <TimeSeries series={cumulative} format={usdAxis} testId="chart-cumulative-pnl" /> : <NoData />}</Card>
        <Card title="Win/Loss Split">
          {data.totalTrades > 0 ? (
            <Donut
              label="Winning and losing trades"
              slices={[
                { label: 'Winning', value: data.winningTrades, text: String(data.winningTrades), color: '#10b981' },
                { label: 'Losing', value: data.losingTrades, text: String(data.losingTrades), color: '#ef4444' },
              ]}
            />
          ) : (
            <NoData />
          )}
        </Card>
        <Card title="Trade Size Distribution">
          <VBars label="Trades by size" bars={data.tradeDistribution.map((b) => ({ label: b.range, value: b.count, text: `${b.count} trades` }))} />
        </Card>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Trading Details">
          <dl>
            <Line label="Total Trades" value={String(data.totalTrades)} />
            <Line label="Winning Trades" value={String(data.winningTrades)} className="text-emerald-600 dark:text-emerald-400" />
            <Line label="Losing Trades" value={String(data.losingTrades)} className="text-red-600 dark:text-red-400" />
            <Line label="Win/Loss Ratio" value={ratio(data.winLossRatio)} hint={D.winLoss} />
            <Line label="Average Win" value={money(data.averageWin)} className={signClass(data.averageWin)} />
            <Line label="Average Loss" value={money(data.averageLoss)} className={signClass(data.averageLoss)} />
            <Line label="Profit Factor" value={ratio(data.profitFactor)} hint={D.profitFactor} />
            <Line label="Total Volume" value={money(data.totalVolume)} />
            <Line label="Average Trade Size" value={money(data.averageTradeSize)} />
          </dl>
        </Card>
        <Card title="Monthly Performance">
          <VBars label="P&L by month" bars={data.monthlyPerformance.map((m) => ({ label: m.month, value: num(m.pnl), text: `${signedMoney(m.pnl)} (${m.trades} trades)` }))} />
        </Card>
      </div>
    </div>
  );
}
