import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function Orders() {
  return (
    <>
      <ScreenHeader title="Orders" />
      <NotBuilt />
    </>
  );
}
