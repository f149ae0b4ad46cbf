import { ScreenHeader } from '@/components/Screen';
import { PositionManager } from '../components/PositionManager';

export default function Positions() {
  return (
    <>
      <ScreenHeader title="Positions" subtitle="Open holdings valued at the current price" />
      <PositionManager />
    </>
  );
}
