import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function StrategyHistory() {
  return (
    <>
      <ScreenHeader title="Strategy History and Analytics" />
      <NotBuilt />
    </>
  );
}
