import { ScreenHeader } from '@/components/Screen';

export default function StrategyPerformance() {
  return (
    <>
      <ScreenHeader title="Strategy Performance" />
      <p className="text-slate-500 dark:text-slate-400">Strategy performance analytics are coming soon.</p>
    </>
  );
}
