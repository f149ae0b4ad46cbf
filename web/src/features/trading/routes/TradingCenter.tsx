import { useState } from 'react';
import { Card, ScreenHeader } from '@/components/Screen';
import { OrderBook } from '../components/OrderBook';
import { OrderManagement } from '../components/OrderManagement';
import { PortfolioOverview } from '../components/PortfolioOverview';
import { PositionManager } from '../components/PositionManager';
import { TradeHistory } from '../components/TradeHistory';
import { TradingForm } from '../components/TradingForm';

const TABS = ['New Trade', 'Positions', 'Orders', 'Portfolio', 'History'] as const;
type Tab = (typeof TABS)[number];

export default function TradingCenter() {
  const [tab, setTab] = useState<Tab>('New Trade');
  return (
    <>
      <ScreenHeader title="Trading Center" subtitle="Trade, and manage positions and orders in one place" />
      <div role="tablist" className="mb-6 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {TABS.map((t) => (
          <button
            key={t}
            role="tab"
            aria-selected={tab === t}
            type="button"
            onClick={() => setTab(t)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${tab === t ? 'border-blue-600 text-blue-600 dark:text-blue-400' : 'border-transparent text-slate-500 hover:text-slate-800 dark:hover:text-slate-200'}`}
          >
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'New Trade' && (
          <>
            <Card className="max-w-2xl">
              <TradingForm />
            </Card>
            <OrderBook />
          </>
        )}
        {tab === 'Positions' && <PositionManager />}
        {tab === 'Orders' && <OrderManagement />}
        {tab === 'Portfolio' && <PortfolioOverview />}
        {tab === 'History' && <TradeHistory limit={50} />}
      </div>
    </>
  );
}
