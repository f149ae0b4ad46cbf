import { Card, ScreenHeader } from '@/components/Screen';
import { OrderBook } from '../components/OrderBook';
import { TradingForm } from '../components/TradingForm';

export default function NewTrade() {
  return (
    <>
      <ScreenHeader title="New Trade" subtitle="Market, limit and stop-loss orders on the connected exchange" />
      <Card className="max-w-2xl">
        <TradingForm />
      </Card>
      <OrderBook />
    </>
  );
}
