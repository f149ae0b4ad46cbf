import { Link } from 'react-router-dom';
import { Card } from '@/components/Screen';
import { formatCount, formatDate } from '@/lib/format';
import { useAISpend } from '../spendApi';
import type { AISpendTotals } from '../types';


/** Where api.ai.pricing and api.ai.monthlyBudget are edited (the Settings screen's API tab). */
export const SPEND_SETTINGS = '/settings#ai-spend-settings';

/** A cost as the server gave it (exact decimal text), or why there is none. */
function cost(t: AISpendTotals): string {
  const shadows = t.shadow_decisions > 0 ? ` (${t.shadow_decisions} shadow call${t.shadow_decisions === 1 ? '' : 's'}: $${t.shadow_cost})` : '';
  if (t.cost == null) return (t.unpriced_decisions > 0 ? `unknown (${t.unpriced_decisions} unpriced; priced part $${t.known_cost})` : 'unknown') + shadows;
  return `$${t.cost}${shadows}`;
}

function Row({ label, t }: { label: string; t: AISpendTotals }) {
  return (
    <tr className="border-t border-slate-200 dark:border-slate-700">
      <td className="py-1 pr-2">{label}</td>
      <td className="py-1 pr-2 text-right tabular-nums">{formatCount(t.decisions)}</td>
      <td className="py-1 pr-2 text-right tabular-nums">{formatCount(t.input_tokens)}</td>
      <td className="py-1 pr-2 text-right tabular-nums">{formatCount(t.output_tokens)}</td>
      <td className="py-1 text-right tabular-nums">{cost(t)}</td>
    </tr>
  );
}

function Table({ caption, rows, total }: { caption: string; rows: { label: string; t: AISpendTotals }[]; total: AISpendTotals }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="mb-1 text-left text-xs font-semibold text-slate-500 dark:text-slate-400">{caption}</caption>
        <thead>
          <tr className="text-left text-xs text-slate-500 dark:text-slate-400">
            <th className="pr-2 font-medium">{caption.startsWith('Per day') ? 'Day (UTC)' : 'Strategy'}</th>
            <th className="pr-2 text-right font-medium">Decisions</th>
            <th className="pr-2 text-right font-medium">Input tokens</th>
            <th className="pr-2 text-right font-medium">Output tokens</th>
            <th className="text-right font-medium">Cost (USD)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <Row key={r.label} label={r.label} t={r.t} />
          ))}
          <Row label="Total" t={total} />
        </tbody>
      </table>
    </div>
  );
}

/**
 * AI spend this month: tokens from the providers' usage reports and cost from the price table
 * (Settings, api.ai.pricing), per day and per strategy, and each provider's budget state.
 */
export function AISpendCard() {
  const q = useAISpend(true);
  if (q.error) return <Card title="AI Spend"><p role="alert" className="text-sm text-red-600">Could not load the AI spend.</p></Card>;
  if (!q.data) return <Card title="AI Spend"><p className="text-sm text-slate-500">Loading...</p></Card>;
  const s = q.data;
  return (
    <Card title="AI Spend">
      <div className="space-y-4" data-testid="ai-spend">
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Since {formatDate(s.from.slice(0, 10))} (UTC): every AI decision, Test AI included. Tokens are the providers' usage reports; cost is
          tokens at the prices in Settings (api.ai.pricing) when each decision was made. Shadow models&apos; calls are included, their part shown beside the cost.
          {s.unpriced_models.length > 0 && <> No price for: {s.unpriced_models.join(', ')}, so their cost is unknown.</>}
        </p>
        <p className="text-sm">
          <Link to={SPEND_SETTINGS} className="font-medium text-blue-600 hover:underline dark:text-blue-400">
            Set model prices and monthly budgets in Settings
          </Link>
        </p>
        <ul className="space-y-1 text-sm" aria-label="Budgets">
          {s.providers.length === 0 && <li className="text-slate-500">No AI decisions this month and no budget set.</li>}
          {s.providers.map((p) => (
            <li key={p.provider} className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{p.provider}</span>
              <span className="tabular-nums">this month ${p.month.known_cost}{p.month.cost == null ? ' known' : ''}</span>
              <span>{p.budget == null ? 'no monthly budget' : `of $${p.budget} budget`}</span>
              {p.paused && (
                <span role="status" className="rounded bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-700 dark:bg-red-900/40 dark:text-red-300">
                  Paused: budget reached
                </span>
              )}
            </li>
          ))}
        </ul>
        <Table caption="Per day" rows={s.days.map((d) => ({ label: d.day, t: d }))} total={s.total} />
        <Table caption="Per strategy" rows={s.strategies.map((d) => ({ label: d.strategy, t: d }))} total={s.total} />
      </div>
    </Card>
  );
}
