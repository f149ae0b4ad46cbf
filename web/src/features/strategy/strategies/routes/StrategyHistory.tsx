import { ScreenHeader } from '@/components/Screen';
import { HistoryView } from '../components/HistoryView';

export default function StrategyHistory() {
  return (
    <>
      <ScreenHeader title="Strategy History and Analytics" subtitle="Every evaluation is recorded, HOLD too, with why it did or did not trade." />
      <HistoryView />
    </>
  );
}
