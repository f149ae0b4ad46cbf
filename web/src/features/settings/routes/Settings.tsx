import { NotBuilt, ScreenHeader } from '@/components/Screen';

export default function Settings() {
  return (
    <>
      <ScreenHeader title="Settings" subtitle="Configure platform settings and preferences" />
      <NotBuilt />
    </>
  );
}
