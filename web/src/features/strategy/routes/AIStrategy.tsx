import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function AIStrategy() {
  return (
    <>
      <ScreenHeader title="AI Strategy Configuration" />
      <NotBuilt />
    </>
  );
}
