import { useState } from 'react';
import { btn } from '@/components/Modal';
import { Card, ScreenHeader } from '@/components/Screen';
import { AI_NAME, TECHNICAL_NAME, useIsOperator, useSignalStream } from '../api';
import { AIConfig } from '../components/AIConfig';
import { OperatorNote } from '../components/controls';
import { CreateStrategyDialog } from '../components/CreateStrategyDialog';
import { FlashBanner, useFlash } from '../components/Flash';
import { HistoryView } from '../components/HistoryView';
import { PerformanceTable } from '../components/PerformanceTable';
import { StrategyCards } from '../components/StrategyCards';
import { TechnicalConfig } from '../components/TechnicalConfig';

const TABS = ['Overview', 'AI Strategies', 'Technical Analysis', 'Performance', 'History'] as const;
type Tab = (typeof TABS)[number];

export default function StrategyManagement() {
  useSignalStream();
  const operator = useIsOperator();
  const flash = useFlash();
  const [tab, setTab] = useState<Tab>('Overview');
  const [creating, setCreating] = useState(false);
  const [aiName, setAIName] = useState(AI_NAME);
  const [techName, setTechName] = useState(TECHNICAL_NAME);
  return (
    <>
      <ScreenHeader title="Strategy Management">
        <button type="button" className={btn.primary} disabled={!operator} onClick={() => setCreating(true)}>
          Create Strategy
        </button>
        {!operator && <OperatorNote>Only operators can create strategies.</OperatorNote>}
      </ScreenHeader>
      <FlashBanner flash={flash.flash} />
      <div role="tablist" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
        {TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            onClick={() => setTab(t)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${tab === t ? 'border-blue-600 text-blue-600 dark:text-blue-400' : 'border-transparent text-slate-500 hover:text-slate-700 dark:hover:text-slate-300'}`}
          >
            {t}
          </button>
        ))}
      </div>
      {tab === 'Overview' && <StrategyCards flash={flash} />}
      {tab === 'AI Strategies' && <AIConfig name={aiName} onPick={setAIName} />}
      {tab === 'Technical Analysis' && <TechnicalConfig name={techName} onPick={setTechName} />}
      {tab === 'Performance' && (
        <Card title="Performance Metrics">
          <PerformanceTable />
        </Card>
      )}
      {tab === 'History' && <HistoryView />}
      {creating && (
        <CreateStrategyDialog
          onClose={() => setCreating(false)}
          onCreated={(name) => {
            setCreating(false);
            flash.ok(`Strategy ${name} created`);
          }}
        />
      )}
    </>
  );
}
