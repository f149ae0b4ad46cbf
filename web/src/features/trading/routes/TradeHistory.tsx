import { ScreenHeader } from '@/components/Screen';
import { TradeHistory as History } from '../components/TradeHistory';

export default function TradeHistory() {
  return (
    <>
      <ScreenHeader title="Trade History" subtitle="Every order, executed or not, newest first" />
      <History limit={500} />
    </>
  );
}
