import { useState } from 'react';
import { btn } from '@/components/Modal';
import { Tabs } from '@/components/Tabs';
import { Card, ScreenHeader } from '@/components/Screen';
import { AI_NAME, TECHNICAL_NAME, useIsOperator, useSignalStream } from '../api';
import { AIConfig } from '../../ai/components/AIConfig';
import { OperatorNote } from '../components/controls';
import { CreateStrategyDialog } from '../components/CreateStrategyDialog';
import { FlashBanner, useFlash } from '@/components/Flash';
import { HistoryView } from '../components/HistoryView';
import { PerformanceTable } from '../components/PerformanceTable';
import { StrategyCards } from '../components/StrategyCards';
import { TechnicalConfig } from '../components/TechnicalConfig';
import { VersionsView } from '../../versions/components/VersionsView';

const TABS = ['Overview', 'AI Strategies', 'Technical Analysis', 'Performance', 'History', 'Versions'] as const;
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
      <Tabs tabs={TABS} value={tab} onChange={setTab} className="mb-4" />
      {tab === 'Overview' && <StrategyCards flash={flash} />}
      {tab === 'AI Strategies' && <AIConfig name={aiName} onPick={setAIName} />}
      {tab === 'Technical Analysis' && <TechnicalConfig name={techName} onPick={setTechName} />}
      {tab === 'Performance' && (
        <Card title="Performance Metrics">
          <PerformanceTable />
        </Card>
      )}
      {tab === 'History' && <HistoryView />}
      {tab === 'Versions' && <VersionsView flash={flash} />}
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
