import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorBox } from '@/components/Field';
import { btn, Row } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { api, errorMessage } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { useConnectionLost } from '@/lib/connection';
import { formatDateTime, formatNumber, formatPrice, formatQty, formatShare, formatSignedMoney, formatUptime, formatMoney, pnlClass} from '@/lib/format';
import { useHistory, useSystemMetrics, useSystemStatus, useTicker } from '../api';
import { fillTypeLabel, strategyLabel } from '../history';
import { TRADES_NOTE, winRateClass } from '../risk';

export function PriceCard({ symbol }: { symbol: string }) {
  const t = useTicker(symbol);
  return (
    <Card title={symbol}>
      {t.data ? (
        <>
          <p className="text-3xl font-semibold tabular-nums" data-testid="price-card-price">
            {formatPrice(t.data.price, symbol)}
          </p>
          <Row label="24h Volume">
            {formatNumber(t.data.volume_24h, 2)} {symbol.split('-')[0]}
          </Row>
          <Row label="Bid / Ask">
            {formatPrice(t.data.bid, symbol)} / {formatPrice(t.data.ask, symbol)}
          </Row>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Updated {formatDateTime(t.data.timestamp)}</p>
        </>
      ) : t.isError ? (
        <ErrorBox message={errorMessage(t.error, 'Failed to load price')} />
      ) : (
        <Spinner />
      )}
    </Card>
  );
}

/** Grey while stale: a last known value is not a current one. */
function statusColor(s: string | undefined, stale = false): string {
  if (stale) return 'text-slate-400 dark:text-slate-500';
  if (s === 'healthy' || s === 'running' || s === 'connected') return 'text-emerald-600 dark:text-emerald-400';
  if (s === 'degraded') return 'text-amber-600';
  return 'text-red-600';
}

/** Since when the system status is stale: the server stopped answering, or the last status fetch failed. */
export function useStatusStale(): number | null {
  const status = useSystemStatus();
  const lost = useConnectionLost();
  if (lost !== null) return lost;
  return status.isError ? status.errorUpdatedAt || Date.now() : null;
}

export function SystemStatusCard() {
  const status = useSystemStatus();
  const me = useMe();
  const qc = useQueryClient();
  const resume = useMutation({ mutationFn: () => api.post('/trading/resume'), retry: 0, onSettled: () => qc.invalidateQueries() });
  const staleSince = useStatusStale();
  const stale = staleSince !== null;
  const s = status.data;
  const exchange = s?.exchange_api_key ? s[s.exchange_api_key] : undefined;
  return (
    <Card title="System Status">
      {!s ? (
        status.isError ? <ErrorBox message={errorMessage(status.error, 'Failed to load system status')} /> : <Spinner />
      ) : (
        <div data-testid="system-status" data-stale={stale ? 'true' : 'false'}>
          {stale && (
            <p role="status" className="mb-3 rounded border border-slate-300 bg-slate-100 p-2 text-xs text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300" data-testid="status-stale">
              Stale: no answer from the server since {formatDateTime(new Date(staleSince).toISOString())}. Last known statuses, shown in grey, may no longer be true.
            </p>
          )}
          {s.risk_management?.emergency_stop && (
            <div role="alert" className="mb-3 rounded border border-red-400 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
              <p className="font-semibold">Emergency Stop Active</p>
              <p className="text-xs">
                {s.risk_management.halted_by ? `By ${s.risk_management.halted_by}` : ''} {s.risk_management.halted_at ? `at ${formatDateTime(s.risk_management.halted_at)}` : ''}
              </p>
              {me.data?.role === 'operator' && (
                <button type="button" className={`${btn.secondary} mt-2`} disabled={resume.isPending} onClick={() => resume.mutate()}>
                  {resume.isPending ? 'Resuming...' : 'Resume Trading'}
                </button>
              )}
              {resume.isError && <p className="mt-1 text-xs">{errorMessage(resume.error, 'Failed to resume trading')}</p>}
            </div>
          )}
          <Row label="Overall">
            <span className={statusColor(s.overall_status, stale)}>{s.overall_status}</span>
          </Row>
          <Row label="Trading Engine">
            <span className={stale ? statusColor('', true) : s.trading_engine.trading_halted ? 'text-red-600' : 'text-emerald-600 dark:text-emerald-400'}>{s.trading_engine.trading_halted ? 'Halted' : 'Running'}</span>
          </Row>
          <Row label="Uptime">{formatUptime(s.trading_engine.uptime_seconds)}</Row>
          <Row label="WebSocket">
            <span className={statusColor(s.websocket?.status, stale)}>{s.websocket?.status ?? 'unknown'}</span>
          </Row>
          <Row label="Database">
            <span className={statusColor(s.database.status, stale)}>{s.database.status}</span>
          </Row>
          {s.database.last_error && (
            <p className="text-right text-xs text-amber-700 dark:text-amber-400" data-testid="database-error">
              {s.database.last_error}
            </p>
          )}
          <Row label="Exchange API">
            <span className={statusColor(exchange?.status, stale)}>
              {exchange?.status ?? 'unknown'}
              {exchange?.sandbox ? ' (sandbox)' : ''}
            </span>
          </Row>
          {s.market_data?.venue && (
            <Row label="Venue">
              <span data-testid="trading-venue">{s.market_data.venue}</span>
            </Row>
          )}
          {s.market_data && (
            <Row label="Market Data">
              <span className={statusColor(s.market_data.status, stale)}>{s.market_data.status}</span>
              {s.market_data.source && (
                <span className="ml-1 text-xs text-slate-500 dark:text-slate-400" data-testid="market-source">
                  ({s.market_data.source})
                </span>
              )}
              {s.market_data.replay_of && (
                <span className="ml-1 block text-right text-xs text-amber-700 dark:text-amber-400" data-testid="market-replay-of">
                  Replay of {s.market_data.replay_of.slice(0, 16).replace('T', ' ')} UTC
                </span>
              )}
            </Row>
          )}
          {s.cluster && (
            <>
              <Row label="Instance">{s.cluster.instance}</Row>
              <Row label="Leader">
                {s.cluster.leader ? (
                  <span className={statusColor('healthy', stale)}>{s.cluster.leader === s.cluster.instance ? `${s.cluster.leader} (this one)` : s.cluster.leader}</span>
                ) : (
                  <span className="text-amber-600">electing</span>
                )}
              </Row>
              <Row label="Instances">
                <span title={s.cluster.instances.map((i) => `${i.id} ${i.addr}${i.leader ? ' (leader)' : ''}`).join('\n')}>
                  {s.cluster.instances.length} live
                </span>
              </Row>
            </>
          )}
        </div>
      )}
    </Card>
  );
}

export function TradingMetricsCard() {
  const m = useSystemMetrics();
  const t = m.data?.trading;
  return (
    <Card title="Trading Metrics">
      {!t ? (
        m.isError ? <ErrorBox message={errorMessage(m.error, 'Failed to load metrics')} /> : <Spinner />
      ) : (
        <>
          <Row label="Total Trades">{t.total_trades}</Row>
          <Row label="Successful">{t.successful_trades}</Row>
          <Row label="Failed">{t.failed_trades}</Row>
          <Row label="Win Rate">
            <span className={t.total_trades ? winRateClass(t.win_rate) : ''}>{t.total_trades ? formatShare(t.win_rate) : '—'}</span>
          </Row>
          <Row label="Daily P&L">
            <span className={pnlClass(t.daily_pnl)}>{formatSignedMoney(t.daily_pnl)}</span>
          </Row>
          <Row label="Active Positions">{t.active_positions}</Row>
          <Row label="Pending Orders">{t.pending_orders}</Row>
          <p className="pt-1 text-xs text-slate-500 dark:text-slate-400">{TRADES_NOTE}</p>
        </>
      )}
    </Card>
  );
}

/** The last 10 fills (never a resting order), refreshed at the dashboard's refresh interval (5 s by default). */
export function RecentTrades({ refreshMs = 5000 }: { refreshMs?: number }) {
  const h = useHistory(10, refreshMs);
  const trades = h.data?.trades ?? [];
  return (
    <Card title="Recent Trades">
      {h.isPending ? (
        <Spinner />
      ) : h.isError ? (
        <ErrorBox message={errorMessage(h.error, 'Failed to fetch trades')} />
      ) : trades.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">No trades yet</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="recent-trades">
          {trades.map((t) => (
            <li key={t.id} className="flex items-center justify-between gap-2 py-2 text-sm tabular-nums">
              <span>
                <span className={`font-semibold ${t.side === 'BUY' ? 'text-emerald-600' : 'text-red-600'}`}>{t.side}</span> {formatQty(t.quantity)} {t.symbol} @ {formatPrice(t.price, t.symbol)}
                <span className="block text-xs text-slate-500">
                  {formatDateTime(t.timestamp)} · {strategyLabel(t.strategy)} · {fillTypeLabel(t)}
                </span>
              </span>
              <span className="text-right">
                {formatMoney(t.total_value)}
                <span className="block text-xs text-slate-500">
                  {t.realized_pnl !== null ? <span className={pnlClass(t.realized_pnl)}>{formatSignedMoney(t.realized_pnl)}</span> : t.status}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
