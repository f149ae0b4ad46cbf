import { Link } from 'react-router-dom';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { formatDateTime, formatShare } from '@/lib/format';
import { useIsOperator, useSetEnabled, useStrategies } from '../api';
import { confidenceClass, MSG, TYPE_LABEL } from '../model';
import type { Strategy } from '../types';
import { ActiveBadge, Badge, OperatorNote, Toggle } from './controls';
import type { useFlash } from '@/components/Flash';
import { timeframeLabel } from '@/lib/timeframe';

/** Where each type is configured (a hybrid has both parts). */
function configLinks(s: Strategy): { label: string; to: string }[] {
  const q = `?name=${encodeURIComponent(s.name)}`;
  if (s.type === 'technical') return [{ label: 'Configure', to: `/strategy/technical${q}` }];
  if (s.type === 'ai_driven') return [{ label: 'Configure', to: `/strategy/ai${q}` }];
  return [
    { label: 'Rules', to: `/strategy/technical${q}` },
    { label: 'AI', to: `/strategy/ai${q}` },
  ];
}

/** Overview: one card per strategy with its toggle; the list reloads after each change. */
export function StrategyCards({ flash }: { flash: ReturnType<typeof useFlash> }) {
  const list = useStrategies();
  const operator = useIsOperator();
  const toggle = useSetEnabled();
  if (list.isLoading) return <Spinner />;
  if (list.error) return <p role="alert" className="text-sm text-red-600">{MSG.loadStrategies}</p>;
  const rows = list.data ?? [];
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{MSG.noStrategies}</p>;
  const flip = (s: Strategy) =>
    toggle.mutate(
      { name: s.name, on: !s.is_active },
      {
        onSuccess: () => flash.ok(`Strategy ${s.name} ${s.is_active ? 'disabled' : 'enabled'}`),
        onError: (err) => flash.fail(s.is_active ? MSG.disableFailed : MSG.enableFailed, err),
      },
    );
  return (
    <div className="space-y-2">
      {!operator && <OperatorNote />}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {rows.map((s) => (
          <Card key={s.name}>
            <div data-testid="strategy-card" className="space-y-3">
              <div className="flex items-start justify-between gap-2">
                <div>
                  <h3 className="font-semibold">{s.name}</h3>
                  <div className="mt-1 flex gap-2">
                    <Badge className="bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-200">{TYPE_LABEL[s.type] ?? s.type}</Badge>
                    <ActiveBadge on={s.is_active} />
                    {s.config.version ? <Badge className="bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200">v{s.config.version}</Badge> : null}
                  </div>
                </div>
                <Toggle on={s.is_active} label={`${s.is_active ? 'Disable' : 'Enable'} ${s.name}`} disabled={!operator || toggle.isPending} onClick={() => flip(s)} />
              </div>
              <dl className="grid grid-cols-3 gap-2 text-sm">
                <div>
                  <dt className="text-xs text-slate-500 dark:text-slate-400">Signals</dt>
                  <dd className="font-semibold tabular-nums">{s.total_signals}</dd>
                </div>
                <div>
                  <dt className="text-xs text-slate-500 dark:text-slate-400">Avg confidence</dt>
                  <dd className={`font-semibold tabular-nums ${s.total_signals ? confidenceClass(s.avg_confidence) : ''}`}>{s.total_signals ? formatShare(s.avg_confidence * 100, 1) : '—'}</dd>
                </div>
                <div>
                  <dt className="text-xs text-slate-500 dark:text-slate-400">Timeframe</dt>
                  <dd className="font-semibold">{timeframeLabel(s.config.timeframe)}</dd>
                </div>
              </dl>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                {s.config.symbols.join(', ')} · last signal {formatDateTime(s.last_signal_time)}
              </p>
              <div className="flex gap-3 text-sm">
                {configLinks(s).map((l) => (
                  <Link key={l.to} to={l.to} className="text-blue-600 hover:underline dark:text-blue-400">
                    {l.label}
                  </Link>
                ))}
              </div>
            </div>
          </Card>
        ))}
      </div>
    </div>
  );
}
