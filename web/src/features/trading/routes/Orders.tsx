import { ScreenHeader } from '@/components/Screen';
import { OrderManagement } from '../components/OrderManagement';

export default function Orders() {
  return (
    <>
      <ScreenHeader title="Orders" subtitle="Open, filled and cancelled orders" />
      <OrderManagement />
    </>
  );
}
