import { useMemo } from 'react';
import { Card } from '@/components/Screen';
import { formatPrice } from '@/lib/format';
import { DEFINITIONS as D, DASH, money, num, pct, ratio, signClass, signedMoney, signedPct } from '../model';
import type { PortfolioAnalytics } from '../types';
import { Donut, HBars } from './bars';
import { Line, NoData, Stat, StatGrid, Table, td, tdR, trCls } from './common';
import { TimeSeries, type Series } from './TimeSeries';

const usdAxis = (v: number) => `$${v.toFixed(0)}`;

export function PortfolioTab({ data }: { data: PortfolioAnalytics }) {
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
          sub={<span className={signClass(data.totalUnrealizedPnLPercent)} data-testid="unrealized-percent">{signedPct(data.totalUnrealizedPnLPercent)}</span>}
        />
        <Stat label="Beta" value={ratio(data.beta)} hint={D.beta} />
        <Stat label="Diversification" value={ratio(data.diversificationRatio)} hint={D.diversification} />
      </StatGrid>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Allocation">
          <Donut label="Allocation by asset" slices={h.map((x) => ({ label: x.symbol, value: num(x.allocation), text: pct(x.allocation, 1) }))} />
        </Card>
        <Card title="Value Over Time">{data.valueHistory.length ? <TimeSeries series={value} format={usdAxis} testId="chart-portfolio-value" /> : <NoData />}</Card>
        <Card title="Holdings Performance">
          <HBars label="Unrealized P&L by holding" bars={h.map((x) => ({ label: x.symbol, value: num(x.unrealizedPnLPercent), text: `${signedPct(x.unrealizedPnLPercent)} (${signedMoney(x.unrealizedPnL)})` }))} />
        </Card>
        <Card title="Risk Metrics">
          <dl>
            <Line label="Volatility" value={pct(data.volatility)} hint={D.volatility} />
            <Line label="Sharpe Ratio" value={ratio(data.sharpeRatio)} hint={D.sharpe} />
            <Line label="Beta" value={ratio(data.beta)} hint={D.beta} />
          </dl>
        </Card>
      </div>
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
                <td className={tdR}>{num(x.quantity) === null ? DASH : num(x.quantity)!.toFixed(4)}</td>
                <td className={tdR}>{num(x.currentPrice) === null ? DASH : formatPrice(x.currentPrice!)}</td>
                <td className={tdR}>{money(x.marketValue)}</td>
                <td className={`${tdR} ${signClass(x.unrealizedPnL)}`}>
                  {signedMoney(x.unrealizedPnL)} <span className="text-xs">({signedPct(x.unrealizedPnLPercent)})</span>
                </td>
                <td className={tdR}>{pct(x.allocation, 1)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}
