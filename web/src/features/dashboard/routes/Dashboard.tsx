import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function Dashboard() {
  return (
    <>
      <ScreenHeader title="Trading Dashboard" />
      <NotBuilt />
    </>
  );
}
