import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function StrategyManagement() {
  return (
    <>
      <ScreenHeader title="Strategy Management" />
      <NotBuilt />
    </>
  );
}
