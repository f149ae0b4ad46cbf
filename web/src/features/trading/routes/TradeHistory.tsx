import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function TradeHistory() {
  return (
    <>
      <ScreenHeader title="Trade History" />
      <NotBuilt />
    </>
  );
}
