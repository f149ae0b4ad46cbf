import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function Positions() {
  return (
    <>
      <ScreenHeader title="Positions" />
      <NotBuilt />
    </>
  );
}
