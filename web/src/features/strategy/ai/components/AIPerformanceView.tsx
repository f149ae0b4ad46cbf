import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { formatShare } from '@/lib/format';
import { useAIPerformance } from '../../strategies/api';
import { confidenceClass, MSG } from '../../strategies/model';

const DECISIONS = ['BUY', 'SELL', 'HOLD'] as const;
const BAR: Record<string, string> = { BUY: 'bg-emerald-500', SELL: 'bg-red-500', HOLD: 'bg-slate-400' };

/** The AI performance view: decisions, executions, execution rate, average confidence and the decision distribution. */
export function AIPerformanceView({ name }: { name: string }) {
  const perf = useAIPerformance(name);
  // A failed load is only logged (spec section 8).
  if (perf.error) console.error('AI performance', perf.error);
  const p = perf.data;
  return (
    <Card title="AI Performance">
      {perf.isLoading ? (
        <Spinner />
      ) : !p || p.total_decisions === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{MSG.noAIPerformance}</p>
      ) : (
        <div className="space-y-4" data-testid="ai-performance">
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <Figure label="Total Decisions" value={String(p.total_decisions)} />
            <Figure label="Executed Decisions" value={String(p.executed_decisions)} />
            <Figure label="Execution Rate" value={formatShare(p.execution_rate * 100, 1)} />
            <Figure label="Average Confidence" value={formatShare(p.avg_confidence * 100, 1)} cls={confidenceClass(p.avg_confidence)} />
            {p.failed_decisions > 0 && <Figure label="Failed Decisions" value={String(p.failed_decisions)} cls="text-red-600 dark:text-red-400" />}
          </dl>
          <div>
            <p className="mb-2 text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">Decision Distribution</p>
            {DECISIONS.map((d) => {
              const n = p.decision_distribution[d] ?? 0;
              const pct = p.total_decisions ? (n / p.total_decisions) * 100 : 0;
              return (
                <div key={d} className="mb-1 flex items-center gap-2 text-sm">
                  <span className="w-12">{d}</span>
                  <div className="h-2 flex-1 rounded bg-slate-100 dark:bg-slate-800">
                    <div className={`h-2 rounded ${BAR[d]}`} style={{ width: `${pct}%` }} />
                  </div>
                  <span className="w-20 text-right tabular-nums" data-testid={`distribution-${d}`}>
                    {n} ({formatShare(pct, 0)})
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      )}
    </Card>
  );
}

function Figure({ label, value, cls = '' }: { label: string; value: string; cls?: string }) {
  return (
    <div>
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${cls}`}>{value}</dd>
    </div>
  );
}
