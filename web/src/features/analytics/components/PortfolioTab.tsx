import { useMemo } from 'react';
import { Card } from '@/components/Screen';
import { formatNumber, formatPrice } from '@/lib/format';
import { DASH, DEFINITIONS as D, money, num, pct, percent, ratio, signClass, signedMoney, signedPercent, usdAxis } from '../model';
import type { PortfolioAnalytics } from '../types';
import { assetColor, Donut, HBars, StackedBars, type Stack } from './bars';
import { Line, NoData, Stat, StatGrid, Table, td, tdR, trCls } from './common';
import { TimeSeries, type Series } from './TimeSeries';


function CorrelationMatrix({ m }: { m: NonNullable<PortfolioAnalytics['correlationMatrix']> }) {
  if (m.symbols.length < 2) return null;
  return (
    <div className="mt-4">
      <p className="mb-1 text-xs font-semibold uppercase text-slate-500 dark:text-slate-400" title={D.correlation}>
        Correlation of daily returns
      </p>
      <Table testId="correlation-matrix" head={[{ label: '' }, ...m.symbols.map((s) => ({ label: s.replace('-USD', ''), right: true, hint: D.correlation }))]}>
        {m.symbols.map((row, i) => (
          <tr key={row} className={trCls}>
            <td className={`${td} font-medium`}>{row.replace('-USD', '')}</td>
            {m.symbols.map((col, j) => (
              <td key={col} className={tdR}>
                {ratio(m.matrix[i]?.[j] ?? null)}
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </div>
  );
}

/** One stack per day: each asset's share, with its value (and quantity at the close) on hover. */
export function allocationStacks(days: NonNullable<PortfolioAnalytics['allocationHistory']>): Stack[] {
  return days.map((d) => ({
    label: d.date,
    segments: d.assets.map((a) => ({
      key: a.asset,
      value: num(a.allocation) ?? 0,
      text: a.asset === 'USD' ? `${percent(a.allocation)} (${money(a.value)})` : `${percent(a.allocation)} (${money(a.value)}: ${num(a.quantity)} at ${money(a.close)})`,
    })),
  }));
}

export function PortfolioTab({ data }: { data: PortfolioAnalytics }) {
  const stacks = useMemo(() => allocationStacks(data.allocationHistory ?? []), [data.allocationHistory]);
  const value = useMemo<Series[]>(() => [{ name: 'Portfolio value', kind: 'area', color: '#3b82f6', points: data.valueHistory }], [data.valueHistory]);
  const h = data.holdings;
  return (
    <div className="space-y-6">
      <StatGrid>
        <Stat label="Total Value" value={money(data.totalValue)} sub={num(data.totalCost) !== null ? `Cost ${money(data.totalCost)}` : undefined} />
        <Stat
          label="Unrealized P&L"
          value={signedMoney(data.totalUnrealizedPnL)}
          className={signClass(data.totalUnrealizedPnL)}
          sub={<span className={signClass(data.totalUnrealizedPnLPercent)} data-testid="unrealized-percent">{signedPercent(data.totalUnrealizedPnLPercent)}</span>}
        />
        <Stat label="Beta" value={ratio(data.beta)} hint={D.beta} sub={data.benchmark ? `Against ${data.benchmark}` : undefined} />
        <Stat label="Diversification" value={ratio(data.diversificationRatio)} hint={D.diversification} />
      </StatGrid>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Allocation">
          <Donut label="Allocation by asset" slices={h.map((x, i) => ({ label: x.symbol, value: num(x.allocation), text: percent(x.allocation, 1), color: assetColor(x.symbol, i) }))} />
        </Card>
        <Card title="Value Over Time">{data.valueHistory.length ? <TimeSeries series={value} format={usdAxis} testId="chart-portfolio-value" /> : <NoData />}</Card>
        <Card title="Holdings Performance">
          <HBars label="Unrealized P&L by holding" bars={h.map((x) => ({ label: x.symbol, value: num(x.unrealizedPnLPercent), text: `${signedPercent(x.unrealizedPnLPercent)} (${signedMoney(x.unrealizedPnL)})` }))} />
        </Card>
        <Card title="Risk Metrics">
          <dl>
            <Line label="Volatility" value={pct(data.volatility)} hint={D.volatility} />
            <Line label="Sharpe Ratio" value={ratio(data.sharpeRatio)} hint={D.sharpe} />
            <Line label="Beta" value={ratio(data.beta)} hint={D.beta} />
          </dl>
          {data.correlationMatrix && <CorrelationMatrix m={data.correlationMatrix} />}
        </Card>
      </div>
      <Card title="Allocation Over Time">
        <StackedBars stacks={stacks} label="Allocation by day" testId="chart-allocation-history" />
        <p className="mt-1 cursor-help text-xs text-slate-500 underline decoration-dotted decoration-slate-400 underline-offset-4 dark:text-slate-400" title={D.allocationHistory}>
          Each day's holdings at that day's close, and cash, as shares of the portfolio.
        </p>
      </Card>
      <Card title="Holdings">
        {h.length === 0 ? (
          <NoData />
        ) : (
          <Table
            testId="holdings"
            head={[{ label: 'Asset' }, { label: 'Quantity', right: true }, { label: 'Current Price', right: true }, { label: 'Market Value', right: true }, { label: 'Unrealized P&L', right: true }, { label: 'Allocation', right: true }]}
          >
            {h.map((x) => (
              <tr key={x.symbol} className={trCls} data-testid="holding-row">
                <td className={`${td} font-medium`}>{x.symbol}</td>
                <td className={tdR}>{num(x.quantity) === null ? DASH : formatNumber(x.quantity, 4)}</td>
                <td className={tdR}>{num(x.currentPrice) === null ? DASH : formatPrice(x.currentPrice!, x.symbol)}</td>
                <td className={tdR}>{money(x.marketValue)}</td>
                <td className={`${tdR} ${signClass(x.unrealizedPnL)}`}>
                  {signedMoney(x.unrealizedPnL)} <span className="text-xs">({signedPercent(x.unrealizedPnLPercent)})</span>
                </td>
                <td className={tdR}>{percent(x.allocation, 1)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}
