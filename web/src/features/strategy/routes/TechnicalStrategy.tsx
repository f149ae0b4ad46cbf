import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function TechnicalStrategy() {
  return (
    <>
      <ScreenHeader title="Technical Analysis" />
      <NotBuilt />
    </>
  );
}
