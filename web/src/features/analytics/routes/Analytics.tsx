import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function Analytics() {
  return (
    <>
      <ScreenHeader title="Analytics Dashboard" subtitle="Comprehensive trading and portfolio analytics" />
      <NotBuilt />
    </>
  );
}
