import { useMemo } from 'react';
import { Card } from '@/components/Screen';
import { formatDateTime, formatNumber } from '@/lib/format';
import { confidenceClass, DEFINITIONS as D, money, num, pct, percent, ratio, signClass, signedMoney, usdAxis, winRatePctClass } from '../model';
import type { AIAnalytics, AIDecision } from '../types';
import { HBars, VBars } from './bars';
import { NoData, Stat, StatGrid, Table, td, tdR, trCls } from './common';
import { TimeSeries, type Series } from './TimeSeries';

const REC = { BUY: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300', SELL: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300', HOLD: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300' };
const OUTCOME = { profit: 'text-emerald-600 dark:text-emerald-400', loss: 'text-red-600 dark:text-red-400', pending: 'text-slate-500 dark:text-slate-400' };
const OUTCOME_LABEL = { profit: 'Profit', loss: 'Loss', pending: 'Pending' };

function Decision({ d }: { d: AIDecision }) {
  return (
    <li className="border-b border-slate-100 py-3 last:border-0 dark:border-slate-800" data-testid="ai-decision">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold">{d.symbol}</span>
        {d.strategyName && <span className="text-xs text-slate-500 dark:text-slate-400">{d.strategyName}</span>}
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${REC[d.recommendation] ?? REC.HOLD}`}>{d.recommendation}</span>
        <span className={`tabular-nums ${confidenceClass(d.confidence)}`} title={D.confidence}>
          {pct(d.confidence, 1)} confidence
        </span>
        <span className="text-xs text-slate-500 dark:text-slate-400">{d.executed ? 'Executed' : 'Not executed'}</span>
        <span className="ml-auto text-xs text-slate-500 dark:text-slate-400">{formatDateTime(d.timestamp)}</span>
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{d.reasoning}</p>
      <p className="mt-1 text-xs">
        <span className={OUTCOME[d.outcome] ?? ''} data-testid="ai-outcome">
          {OUTCOME_LABEL[d.outcome] ?? d.outcome}
        </span>
        {d.outcome !== 'pending' && <span className={`ml-2 tabular-nums ${signClass(d.pnl)}`}>{signedMoney(d.pnl)}</span>}
      </p>
    </li>
  );
}

export function AITab({ data }: { data: AIAnalytics }) {
  const m = data.metrics;
  const history = data.performance;
  const perf = useMemo<Series[]>(() => [{ name: 'Daily P&L of resolved BUY decisions', kind: 'histogram', color: '#8b5cf6', signed: true, points: history.map((p) => ({ date: p.date, value: p.pnl })) }], [history]);
  const hasPerf = history.some((p) => num(p.pnl) !== null);
  const rt = num(m.averageResponseTime);
  return (
    <div className="space-y-6">
      <StatGrid>
        <Stat label="Accuracy Rate" value={percent(m.accuracyRate, 1)} hint={D.accuracy} className={winRatePctClass(m.accuracyRate)} sub={`${m.executedDecisions} of ${m.totalDecisions} decisions executed`} />
        <Stat label="Average Confidence" value={pct(m.averageConfidence, 1)} hint={D.confidence} className={confidenceClass(m.averageConfidence)} />
        <Stat label="Total P&L" value={signedMoney(m.totalPnL)} className={signClass(m.totalPnL)} sub={`Win rate ${percent(m.winRate, 1)} (closed round trips)`} />
        <Stat label="Response Time" value={rt === null ? '—' : `${formatNumber(rt, 2)}s`} hint={D.responseTime} sub={m.modelVersion ? `Model ${m.modelVersion}` : undefined} />
      </StatGrid>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Confidence Distribution">
          <VBars label="Decisions by confidence" bars={data.confidenceDistribution.map((b) => ({ label: b.range, value: b.count, text: `${b.count} decisions`, color: '#8b5cf6' }))} />
        </Card>
        <Card title="Performance Over Time">{hasPerf ? <TimeSeries series={perf} format={usdAxis} testId="chart-ai-performance" height="h-48" /> : <NoData />}</Card>
        <Card title="Decision Type Analysis">
          <HBars
            label="Decisions by type"
            bars={data.decisionBreakdown.map((b) => ({ label: b.type, value: b.count, text: `${b.count} (${percent(b.successRate, 1)} successful)`, color: '#3b82f6', title: D.successRate }))}
          />
        </Card>
      </div>
      <Card title="Strategy Performance">
        {data.strategies.length === 0 ? (
          <NoData />
        ) : (
          <Table
            testId="ai-strategies"
            head={[
              { label: 'Strategy' },
              { label: 'Status' },
              { label: 'Trades', right: true },
              { label: 'Win Rate', right: true },
              { label: 'Total P&L', right: true },
              { label: 'Sharpe', right: true, hint: D.tradeSharpe },
              { label: 'Max Drawdown', right: true, hint: D.tradeDrawdown },
              { label: 'Avg Confidence', right: true, hint: D.confidence },
            ]}
          >
            {data.strategies.map((s) => (
              <tr key={s.strategyName} className={trCls}>
                <td className={`${td} font-medium`}>{s.strategyName}</td>
                <td className={td}>
                  <span className={`rounded px-2 py-0.5 text-xs font-semibold ${s.isActive ? 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300' : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300'}`}>
                    {s.isActive ? 'Active' : 'Inactive'}
                  </span>
                </td>
                <td className={tdR}>{s.totalTrades}</td>
                <td className={`${tdR} ${winRatePctClass(s.winRate)}`}>{percent(s.winRate, 1)}</td>
                <td className={`${tdR} ${signClass(s.totalPnL)}`}>{signedMoney(s.totalPnL)}</td>
                <td className={tdR}>{ratio(s.sharpeRatio)}</td>
                <td className={tdR}>{money(s.maxDrawdown)}</td>
                <td className={`${tdR} ${confidenceClass(s.averageConfidence)}`}>{pct(s.averageConfidence, 1)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <Card title="Recent AI Decisions">{data.decisions.length === 0 ? <NoData /> : <ul>{data.decisions.slice(0, 10).map((d) => <Decision key={d.id} d={d} />)}</ul>}</Card>
    </div>
  );
}
