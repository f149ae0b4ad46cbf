import { useState } from 'react';
import { Spinner } from '@/components/Spinner';
import { useIsOperator } from '../../../strategies/api';
import { type PromptHistory, usePromptVersions } from '../../promptApi';
import { templateText } from '../../promptModel';
import type { useFlash } from '@/components/Flash';
import { PromptBacktest } from './PromptBacktest';
import { PromptEditor } from './PromptEditor';
import { PromptDiff, PromptVersionList } from './PromptVersions';

/** The prompt of an AI instance: the editor, its versions with a diff of any two, and a backtest of any version. */
export function PromptWorkbench({ name, symbols, flash }: { name: string; symbols: string[]; flash: ReturnType<typeof useFlash> }) {
  const q = usePromptVersions(name);
  if (q.isLoading) return <Spinner />;
  if (q.error || !q.data)
    return (
      <p role="alert" className="text-sm text-red-600">
        Failed to load the prompt versions: {String((q.error as Error | null)?.message ?? '')}
      </p>
    );
  // A new active version (saved or rolled back) starts the editor again from its template.
  return <Workbench key={q.data.active_version} name={name} symbols={symbols} history={q.data} flash={flash} />;
}

function Workbench({ name, symbols, history, flash }: { name: string; symbols: string[]; history: PromptHistory; flash: ReturnType<typeof useFlash> }) {
  const operator = useIsOperator();
  const active = history.versions.find((v) => v.active);
  const [draft, setDraft] = useState(() => (active ? (templateText(active, history.default) ?? history.default.template) : history.default.template));
  return (
    <div className="space-y-4">
      <PromptEditor name={name} symbols={symbols} history={history} draft={draft} setDraft={setDraft} flash={flash} />
      <div className="grid min-w-0 gap-4 xl:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <PromptVersionList
            history={history}
            canEdit={operator}
            onLoad={(text, v) => {
              setDraft(text);
              flash.ok(`Version ${v}'s template is in the editor: save it as a new version to use it`);
            }}
          />
          <PromptBacktest key={history.active_version} name={name} symbols={symbols} history={history} />
        </div>
        <div className="min-w-0">{history.versions.length > 1 && <PromptDiff history={history} />}</div>
      </div>
    </div>
  );
}
