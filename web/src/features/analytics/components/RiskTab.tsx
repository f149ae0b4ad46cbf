import { useMemo } from 'react';
import { Card } from '@/components/Screen';
import { fractionAxis } from '@/lib/format';
import { correlationLevel, DEFINITIONS as D, isSevere, money, num, pct, percent, ratio, signedMoney, signedPercent, usdAxis } from '../model';
import type { Frequency, LimitsState, Num, RiskAnalytics } from '../types';
import { HBars } from './bars';
import { Line, NoData, Stat, StatGrid, Table, td, tdR, trCls } from './common';
import { TimeSeries, type Series } from './TimeSeries';

const pctAxis = fractionAxis(1);
const LEVEL = { High: 'text-red-600 dark:text-red-400', Medium: 'text-amber-600 dark:text-amber-400', Low: 'text-emerald-600 dark:text-emerald-400' };

/** A loss fraction with its USD amount of the current portfolio value, e.g. 3.20% ($320.00). */
function lossText(frac: Num, usd?: Num): string {
  if (num(frac) === null) return pct(frac);
  return num(usd ?? null) === null ? pct(frac) : `${pct(frac)} (${money(usd)})`;
}

/** A probability as a percent of the history's windows, with what it rests on; or why there is none. */
function Probability({ f, label = '' }: { f: Frequency; label?: string }) {
  const basis = f.probabilityBasis ?? '';
  if (num(f.probability) === null) {
    return (
      <span className="cursor-help" title={`${D.probability}\n${basis}`} data-testid="probability">
        No probability{basis ? `: ${basis.charAt(0).toLowerCase()}${basis.slice(1)}` : ''}
      </span>
    );
  }
  return (
    <span className="cursor-help underline decoration-dotted decoration-slate-400 underline-offset-4" title={`${D.probability}\n${basis}`} data-testid="probability">
      {label}
      {pct(f.probability, 2)}
      {f.occurrences !== undefined && f.windows !== undefined ? ` (${f.occurrences} of ${f.windows} ${f.horizonDays}-day windows)` : ''}
    </span>
  );
}

/** Since when, and on which venue, the risk limits measure the account: a switch of venue starts them afresh. */
function LimitsLine({ s }: { s: LimitsState }) {
  const since = s.since ? new Date(s.since).toLocaleString() : 'the first recorded value';
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="limits-state">
      Risk limits measure {s.venue} since {since}: peak {s.peakValue === null ? 'none recorded yet' : money(s.peakValue)}, day's start{' '}
      {s.dayStartValue === null ? 'not recorded yet' : money(s.dayStartValue)}, {s.tradesToday} {s.tradesToday === 1 ? 'trade' : 'trades'} today.
    </p>
  );
}

export function RiskTab({ data }: { data: RiskAnalytics }) {
  const m = data.metrics;
  const varSeries = useMemo<Series[]>(
    () => [
      { name: 'Actual P&L', kind: 'histogram', color: '#10b981', signed: true, points: data.varHistory.map((p) => ({ date: p.date, value: p.actualPnL })) },
      { name: 'VaR 95%', kind: 'line', color: '#f59e0b', points: data.varHistory.map((p) => ({ date: p.date, value: num(p.var95) === null ? null : -num(p.var95)! })) },
      { name: 'VaR 99%', kind: 'line', color: '#ef4444', points: data.varHistory.map((p) => ({ date: p.date, value: num(p.var99) === null ? null : -num(p.var99)! })) },
    ],
    [data.varHistory],
  );
  const ddSeries = useMemo<Series[]>(() => [{ name: 'Drawdown', kind: 'area', color: '#ef4444', points: data.drawdownHistory.map((p) => ({ date: p.date, value: num(p.drawdown) === null ? null : -Math.abs(num(p.drawdown)!) })) }], [data.drawdownHistory]);
  return (
    <div className="space-y-6">
      {data.limitsState && <LimitsLine s={data.limitsState} />}
      <StatGrid>
        <Stat label="VaR 95%" value={lossText(m.var95, m.var95Amount)} hint={D.var95} className="text-red-600 dark:text-red-400" sub={<span title={D.parametricVar}>Parametric: {pct(m.parametricVar95)}</span>} />
        <Stat label="Max Drawdown" value={pct(m.maxDrawdown)} hint={D.maxDrawdown} />
        <Stat label="Volatility" value={pct(m.volatility)} hint={D.volatility} />
        <Stat label="Sharpe Ratio" value={ratio(m.sharpeRatio)} hint={D.sharpe} />
      </StatGrid>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="VaR History">
          {data.varHistory.length ? <TimeSeries series={varSeries} format={usdAxis} testId="chart-var-history" /> : <NoData />}
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Each day's actual P&L against that day's VaR in USD (drawn as losses below zero).</p>
        </Card>
        <Card title="Drawdown">{data.drawdownHistory.length ? <TimeSeries series={ddSeries} format={pctAxis} testId="chart-drawdown" /> : <NoData />}</Card>
        <Card title="Risk Decomposition">
          <HBars label="Contribution to portfolio variance" bars={data.riskDecomposition.map((r) => ({ label: r.component, value: num(r.percentage), text: percent(r.percentage, 1), color: '#8b5cf6', title: D.riskContribution }))} />
        </Card>
        <Card title="Stress Tests">
          <HBars
            label="Stress test impact"
            bars={data.stressTests.map((s) => ({ label: s.scenario, value: num(s.impactPercent), text: signedPercent(s.impactPercent), color: isSevere(s.impactPercent) ? '#dc2626' : '#f59e0b', title: D.stress }))}
          />
        </Card>
      </div>
      {data.stressTests.length > 0 && (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {data.stressTests.map((s) => (
            <Card key={s.scenario} className={isSevere(s.impactPercent) ? 'border-red-400 dark:border-red-700' : ''}>
              <div data-testid="stress-card" data-severe={isSevere(s.impactPercent)}>
                <p className="font-semibold">{s.scenario}</p>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{s.description}</p>
                <p className={`mt-2 text-lg font-semibold tabular-nums ${isSevere(s.impactPercent) ? 'text-red-600 dark:text-red-400' : 'text-amber-600 dark:text-amber-400'}`} title={D.stress}>
                  {signedMoney(s.portfolioImpact)} ({signedPercent(s.impactPercent)})
                </p>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  <Probability f={s} label="Probability " />
                </p>
              </div>
            </Card>
          ))}
        </div>
      )}
      <Card title="Scenario Analysis">
        {(data.scenarioAnalysis ?? []).length === 0 ? (
          <NoData />
        ) : (
          <Table testId="scenario-analysis" head={[{ label: 'Scenario' }, { label: 'Probability', right: true, hint: D.probability }, { label: 'Impact', right: true, hint: D.scenario }]}>
            {data.scenarioAnalysis!.map((s) => (
              <tr key={s.scenario} className={trCls} data-testid="scenario-row">
                <td className={td}>
                  <p className="font-medium">{s.scenario}</p>
                  <p className="text-xs text-slate-500 dark:text-slate-400">{s.description}</p>
                </td>
                <td className={`${tdR} whitespace-nowrap`}>
                  <Probability f={s} />
                </td>
                <td className={`${tdR} whitespace-nowrap ${isSevere(s.impactPercent) ? 'text-red-600 dark:text-red-400' : num(s.impact) ? 'text-amber-600 dark:text-amber-400' : ''}`} title={D.scenario}>
                  {signedMoney(s.impact)} ({signedPercent(s.impactPercent)})
                </td>
              </tr>
            ))}
          </Table>
        )}
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Probabilities are how often each move happened in the shipped daily closes{data.scenarioAnalysis?.[0]?.dataFrom ? ` (${data.scenarioAnalysis[0].dataFrom} to ${data.scenarioAnalysis[0].dataTo})` : ''}, not a forecast.</p>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Detailed Risk Metrics">
          <dl>
            <Line label="VaR 95%" value={lossText(m.var95, m.var95Amount)} hint={D.var95} />
            <Line label="VaR 99%" value={lossText(m.var99, m.var99Amount)} hint={D.var99} />
            <Line label="Parametric VaR 95%" value={lossText(m.parametricVar95)} hint={D.parametricVar} />
            <Line label="Parametric VaR 99%" value={lossText(m.parametricVar99)} hint={D.parametricVar} />
            <Line label="Expected Shortfall" value={lossText(m.expectedShortfall, m.expectedShortfallAmount)} hint={D.expectedShortfall} />
            <Line label="Max Drawdown" value={pct(m.maxDrawdown)} hint={D.maxDrawdown} />
            <Line label="Current Drawdown" value={pct(m.currentDrawdown)} hint={D.currentDrawdown} />
            <Line label="Recovery Factor" value={ratio(m.recoveryFactor)} hint={D.recoveryFactor} />
            <Line label="Sharpe Ratio" value={ratio(m.sharpeRatio)} hint={D.sharpe} />
            <Line label="Sortino Ratio" value={ratio(m.sortinoRatio)} hint={D.sortino} />
            <Line label="Calmar Ratio" value={ratio(m.calmarRatio)} hint={D.calmar} />
          </dl>
          {m.returnsUsed !== undefined && <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">From {m.returnsUsed} daily returns of the portfolio value.</p>}
        </Card>
        <Card title="Correlation Risk">
          {data.correlationRisks.length === 0 ? (
            <NoData />
          ) : (
            <Table testId="correlation-risk" head={[{ label: 'Asset Pair' }, { label: 'Correlation', right: true, hint: D.correlation }, { label: 'Risk Contribution', right: true, hint: D.riskContribution }, { label: 'Level', right: true }]}>
              {data.correlationRisks.map((c) => {
                const level = correlationLevel(c.correlation);
                return (
                  <tr key={`${c.asset1}-${c.asset2}`} className={trCls}>
                    <td className={td}>
                      {c.asset1} / {c.asset2}
                    </td>
                    <td className={tdR}>{ratio(c.correlation)}</td>
                    <td className={tdR}>{percent(c.riskContribution, 1)}</td>
                    <td className={`${tdR} font-medium ${level ? LEVEL[level] : ''}`}>{level ?? '—'}</td>
                  </tr>
                );
              })}
            </Table>
          )}
        </Card>
      </div>
    </div>
  );
}
