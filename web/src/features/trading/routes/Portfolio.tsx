import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function Portfolio() {
  return (
    <>
      <ScreenHeader title="Portfolio" />
      <NotBuilt />
    </>
  );
}
