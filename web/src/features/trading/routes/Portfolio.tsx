import { ScreenHeader } from '@/components/Screen';
import { PortfolioOverview } from '../components/PortfolioOverview';

export default function Portfolio() {
  return (
    <>
      <ScreenHeader title="Portfolio Overview" subtitle="Value, profit and loss, and risk of the whole account" />
      <PortfolioOverview />
    </>
  );
}
