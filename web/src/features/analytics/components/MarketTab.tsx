import { useMemo } from 'react';
import { Card } from '@/components/Screen';
import { formatCompact, formatNumber, formatPrice } from '@/lib/format';
import { compact, correlationStrength, DEFINITIONS as D, indexClass, num, pct, percent, ratio, scaled, signClass, signedPercent } from '../model';
import type { MarketAnalytics } from '../types';
import { assetColor, HBars } from './bars';
import { NoData, Stat, StatGrid, Table, td, tdR, trCls } from './common';
import { TimeSeries, type Series } from './TimeSeries';

const indexAxis = (v: number) => formatNumber(v, 1);
const volAxis = (v: number) => formatCompact(v, 1);
const TREND: Record<string, string> = { bullish: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300', bearish: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300' };
const RISK: Record<string, string> = { high: 'text-red-600 dark:text-red-400', medium: 'text-amber-600 dark:text-amber-400', low: 'text-emerald-600 dark:text-emerald-400' };

/** Each symbol's close rebased to 100 at its first point, so the four compare on one scale. */
export function rebased(history: MarketAnalytics['priceHistory']): Series[] {
  return Object.entries(history).map(([symbol, points], i) => {
    const first = points.map((p) => num(p.close)).find((v) => v !== null && v > 0) ?? null;
    return { name: symbol, kind: 'line' as const, color: assetColor(symbol, i), points: points.map((p) => ({ date: p.date, value: first === null || num(p.close) === null ? null : (num(p.close)! / first) * 100 })) };
  });
}

export function MarketTab({ data }: { data: MarketAnalytics }) {
  const m = data.metrics;
  const prices = useMemo(() => rebased(data.priceHistory), [data.priceHistory]);
  const hasPrices = prices.some((s) => s.points.length > 0);
  const volume = useMemo<Series[]>(
    () => [
      { name: 'Volume (base units)', kind: 'histogram', color: '#93c5fd', points: data.volumeAnalysis.map((v) => ({ date: v.date, value: v.volume })) },
      { name: 'Average volume', kind: 'line', color: '#f59e0b', points: data.volumeAnalysis.map((v) => ({ date: v.date, value: v.avgVolume })) },
    ],
    [data.volumeAnalysis],
  );
  return (
    <div className="space-y-6">
      <StatGrid>
        <Stat label="Market Cap" value={scaled(m.marketCap, 'T')} hint={D.marketCap} sub={<span data-testid="supply-source" title={data.supply?.note}>Circulating supply as of {data.supply?.asOf || '—'}; source below</span>} />
        <Stat label="24h Volume" value={scaled(m.volume24h, 'B')} sub={num(m.dominance) !== null ? <span title={m.dominanceScope}>BTC dominance {percent(m.dominance)} of the tracked assets</span> : undefined} />
        <Stat label="Volatility Index" value={pct(m.volatilityIndex, 1)} hint={D.volatilityIndex} />
        <Stat
          label="Kestrel Market Index"
          value={num(m.fearGreedIndex) === null ? '—' : formatNumber(m.fearGreedIndex, 0)}
          hint={D.kestrelIndex}
          className={indexClass(m.fearGreedIndex)}
          sub={
            <span data-testid="index-detail">
              {m.fearGreedLabel ? `${m.fearGreedLabel}. ` : ''}
              {m.marketIndex ? `Momentum ${formatNumber(m.marketIndex.momentum, 0)}, volatility ${formatNumber(m.marketIndex.volatility, 0)}, volume ${formatNumber(m.marketIndex.volume, 0)}. ` : ''}
              Kestrel's own index, not a third-party fear &amp; greed index
            </span>
          }
        />
      </StatGrid>
      <Card title="Market Trends">
        {data.trends.length === 0 ? (
          <NoData />
        ) : (
          <Table testId="market-trends" head={[{ label: 'Symbol' }, { label: 'Price', right: true }, { label: '24h Change', right: true }, { label: 'Volume (24h, USD)', right: true }, { label: 'Market Cap', right: true, hint: D.marketCap }, { label: 'Trend', right: true }]}>
            {data.trends.map((t) => (
              <tr key={t.symbol} className={trCls} data-testid="trend-row">
                <td className={`${td} font-medium`}>{t.symbol}</td>
                <td className={tdR}>{num(t.price) === null ? '—' : formatPrice(t.price!, t.symbol)}</td>
                <td className={`${tdR} ${signClass(t.changePercent24h)}`}>{signedPercent(t.changePercent24h)}</td>
                <td className={tdR}>{num(t.volumeUsd) === null ? '—' : `$${compact(t.volumeUsd)}`}</td>
                <td className={tdR}>{num(t.marketCap) === null ? '—' : `$${compact(t.marketCap)}`}</td>
                <td className={tdR}>
                  {t.trend ? (
                    <span title="Bullish when close > SMA20 > SMA50, bearish when close < SMA20 < SMA50, else neutral (daily closes)" className={`rounded px-2 py-0.5 text-xs font-semibold capitalize ${TREND[t.trend] ?? 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'}`}>
                      {t.trend}
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Price Comparison">
          {hasPrices ? <TimeSeries series={prices} format={indexAxis} testId="chart-price-comparison" /> : <NoData />}
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Daily closes rebased to 100 at the period's start.</p>
        </Card>
        <Card title="Volume Analysis">{data.volumeAnalysis.length ? <TimeSeries series={volume} format={volAxis} testId="chart-volume" /> : <NoData />}</Card>
        <Card title="Volatility Analysis">
          <HBars
            label="Volatility by symbol"
            bars={data.volatility.map((v) => ({ label: v.symbol, value: num(v.volatility), text: `${pct(v.volatility, 1)} (1y avg ${pct(v.averageVolatility, 1)})`, color: '#f59e0b', title: D.volatility }))}
          />
          {data.volatility.length > 0 && (
            <ul className="mt-3 flex flex-wrap gap-3 text-xs">
              {data.volatility.map((v) => (
                <li key={v.symbol} className={RISK[(v.riskLevel ?? '').toLowerCase()] ?? ''} title="Risk level: High above 80% annualised volatility, Medium above 50%, else Low">
                  {v.symbol}: {v.riskLevel ?? '—'}
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Correlations">
          {data.correlations.length === 0 ? (
            <NoData />
          ) : (
            <div className="grid grid-cols-2 gap-3">
              {data.correlations.map((c) => (
                <div key={`${c.symbol1}-${c.symbol2}`} className="rounded border border-slate-200 p-3 dark:border-slate-800" data-testid="correlation-card">
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    {c.symbol1} / {c.symbol2}
                  </p>
                  <p className="text-xl font-semibold tabular-nums cursor-help" title={D.correlation}>
                    {ratio(c.correlation)}
                  </p>
                  <p className="text-xs capitalize">{c.strength ?? correlationStrength(c.correlation)}</p>
                </div>
              ))}
            </div>
          )}
        </Card>
      </div>
      {data.dates && (
        <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="market-dates">
          Daily candles: {data.dates.source === 'candle store' ? 'the candle store, by real dates' : "the live market's"}
          {data.dates.from && data.dates.to ? `, ${data.dates.from.slice(0, 10)} to ${data.dates.to.slice(0, 16).replace('T', ' ')} UTC` : ''}. {data.dates.note}.
        </p>
      )}
      <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="supply-note">
        Market caps: price x circulating supply as of {data.supply?.asOf || '—'}. Source: {data.supply?.source || '—'}.
        {data.supply?.unverified && data.supply.unverified.length > 0 && <> Unverified supply figures: {data.supply.unverified.join(', ')} (their market caps are approximate).</>}
        {data.unavailable && Object.keys(data.unavailable).length > 0 && <> Not computed: {Object.entries(data.unavailable).map(([k, v]) => `${k} (${v})`).join('; ')}.</>}
      </p>
    </div>
  );
}
