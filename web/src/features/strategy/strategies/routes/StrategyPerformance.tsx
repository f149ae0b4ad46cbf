import { Card, ScreenHeader } from '@/components/Screen';
import { useStrategies } from '../api';
import { AIPerformanceView } from '../../ai/components/AIPerformanceView';
import { PerformanceTable } from '../components/PerformanceTable';

export default function StrategyPerformance() {
  const ai = (useStrategies().data ?? []).filter((s) => s.type !== 'technical');
  return (
    <>
      <ScreenHeader title="Strategy Performance" subtitle="Each strategy's results from its own orders' fills." />
      <div className="space-y-4">
        <Card title="Performance by Strategy">
          <PerformanceTable />
        </Card>
        {ai.length > 0 && (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {ai.map((s) => (
              <div key={s.name}>
                <p className="mb-1 text-sm font-semibold">{s.name}</p>
                <AIPerformanceView name={s.name} />
              </div>
            ))}
          </div>
        )}
      </div>
    </>
  );
}
