import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function TradingCenter() {
  return (
    <>
      <ScreenHeader title="Trading Center" />
      <NotBuilt />
    </>
  );
}
