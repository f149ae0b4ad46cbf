import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function Backtest() {
  return (
    <>
      <ScreenHeader title="Strategy Backtesting" />
      <NotBuilt />
    </>
  );
}
