import { useState } from 'react';
import { ScreenHeader } from '@/components/Screen';
import { Panel } from '../components/Panel';
import { AITab } from '../components/AITab';
import { MarketTab } from '../components/MarketTab';
import { PortfolioTab } from '../components/PortfolioTab';
import { RiskTab } from '../components/RiskTab';
import { TradingTab } from '../components/TradingTab';
import { DEFAULT_PERIOD, DEFAULT_SYMBOL, PERIOD_LABELS, PERIODS, TABS } from '../model';
import type { Period, Tab } from '../types';
import { useSymbolChoices } from '@/lib/products';

const select = 'rounded border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800';

function TabBody({ tab, period, symbol }: { tab: Tab; period: Period; symbol: string }) {
  switch (tab) {
    case 'trading':
      return <Panel tab="trading" period={period} symbol={symbol}>{(d) => <TradingTab data={d} />}</Panel>;
    case 'portfolio':
      return <Panel tab="portfolio" period={period} symbol={symbol}>{(d) => <PortfolioTab data={d} />}</Panel>;
    case 'risk':
      return <Panel tab="risk" period={period} symbol={symbol}>{(d) => <RiskTab data={d} />}</Panel>;
    case 'market':
      return <Panel tab="market" period={period} symbol={symbol}>{(d) => <MarketTab data={d} />}</Panel>;
    case 'ai':
      return <Panel tab="ai" period={period} symbol={symbol}>{(d) => <AITab data={d} />}</Panel>;
  }
}

/** The Analytics Dashboard: five tabs, each fetched for the selected period and symbol. */
export default function Analytics() {
  const [tab, setTab] = useState<Tab>('trading');
  // Each tab keeps its own period: 30 days, 7 for market (spec section 9).
  const [periods, setPeriods] = useState<Record<Tab, Period>>(DEFAULT_PERIOD);
  // The account as a whole first ("All symbols"); one market is a choice.
  const [symbol, setSymbol] = useState('');
  const period = periods[tab];
  // "All symbols" is a Trading Performance choice; the other views show one symbol.
  const shown = symbol === '' && tab !== 'trading' ? DEFAULT_SYMBOL : symbol;
  const symbols = useSymbolChoices(shown);
  return (
    <>
      <ScreenHeader title="Analytics Dashboard" subtitle="Comprehensive trading and portfolio analytics">
        <label className="flex items-center gap-2 text-sm">
          Period
          <select aria-label="Period" className={select} value={period} onChange={(e) => setPeriods((p) => ({ ...p, [tab]: e.target.value as Period }))}>
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {PERIOD_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          Symbol
          <select aria-label="Symbol" className={select} value={shown} onChange={(e) => setSymbol(e.target.value)}>
            {tab === 'trading' && <option value="">All symbols</option>}
            {symbols.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </ScreenHeader>
      <div role="tablist" aria-label="Analytics" className="mb-6 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="analytics-panel"
            onClick={() => setTab(t.id)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${tab === t.id ? 'border-blue-600 text-blue-600 dark:text-blue-400' : 'border-transparent text-slate-500 hover:text-slate-700 dark:hover:text-slate-300'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="analytics-panel" aria-labelledby={`tab-${tab}`}>
        <TabBody tab={tab} period={period} symbol={shown} />
      </div>
    </>
  );
}
