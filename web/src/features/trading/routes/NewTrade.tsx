import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function NewTrade() {
  return (
    <>
      <ScreenHeader title="New Trade" />
      <NotBuilt />
    </>
  );
}
