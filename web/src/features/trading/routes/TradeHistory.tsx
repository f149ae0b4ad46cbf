import { ScreenHeader } from '@/components/Screen';
import { TradeHistory as History } from '../components/TradeHistory';

export default function TradeHistory() {
  return (
    <>
      <ScreenHeader title="Trade History" subtitle="Every fill, newest first; orders that have not filled, protective stops included, are on Orders" />
      <History limit={500} />
    </>
  );
}
