import { useState } from 'react';
import { ErrorBox, Field } from '@/components/Field';
import { btn } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { formatDateTime } from '@/lib/format';
import { notifyApi, useChannels, useDeliveries, useNotifyMutation, useRouting, type Channel, type Delivery, type Routing } from '../notifyApi';

/** Account -> Notifications: webhook channels, which events go where, and what was delivered. */
export function Notifications() {
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-500">
        Webhooks only for now: each message is signed (Standard Webhooks) and retried for 24 hours until your receiver answers 2xx. Browser push, Telegram and
        email are not available yet.
      </p>
      <Channels />
      <RoutingForm />
      <DeliveryLog />
    </div>
  );
}

function Channels() {
  const channels = useChannels();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const create = useNotifyMutation((c: { name: string; url: string }) => notifyApi.create(c));
  const remove = useNotifyMutation((id: string) => notifyApi.remove(id));
  const test = useNotifyMutation((c: Channel) => notifyApi.test(c.id));
  const fields = create.error instanceof ApiError ? create.error.fields : {};
  return (
    <section aria-label="Channels" className="space-y-3">
      <h3 className="font-medium">Channels</h3>
      {channels.error && <ErrorBox message={errorMessage(channels.error, 'Failed to load your channels')} />}
      {channels.data?.length === 0 && <p className="text-sm text-slate-500">No channels yet.</p>}
      <ul className="space-y-1 text-sm">
        {(channels.data ?? []).map((c) => (
          <li key={c.id} className="flex items-center gap-3">
            <span className="font-medium">{c.name}</span>
            <span className="truncate text-slate-500">{c.url}</span>
            <button
              type="button"
              className={btn.small}
              disabled={test.isPending}
              onClick={() =>
                test.mutate(c, {
                  onSuccess: (d) => setResult(d.status === 'delivered' ? `Test delivered to ${c.name}.` : `Test to ${c.name} failed: ${d.last_error}`),
                })
              }
            >
              Send test
            </button>
            <button type="button" className={btn.small} disabled={remove.isPending} onClick={() => remove.mutate(c.id, { onSuccess: () => setResult(`${c.name} deleted.`) })}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {(test.error || remove.error) && <ErrorBox message={errorMessage(test.error ?? remove.error, 'The request failed')} />}
      {result && (
        <p role="status" className="text-sm">
          {result}
        </p>
      )}
      <form
        className="grid gap-2 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { name, url },
            {
              onSuccess: (c) => {
                setSecret(c.secret);
                setName('');
                setUrl('');
              },
            },
          );
        }}
      >
        <Field id="hook-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} error={fields.name} />
        <Field id="hook-url" label="Webhook URL" value={url} placeholder="https://example.com/hooks/kestrel" onChange={(e) => setUrl(e.target.value)} error={fields.url} />
        <button type="submit" className={btn.primary} disabled={create.isPending}>
          Add webhook
        </button>
      </form>
      {create.error && !Object.keys(fields).length && <ErrorBox message={errorMessage(create.error, 'Failed to add the webhook')} />}
      {secret && (
        <p role="status" className="text-sm">
          Signing secret (shown once, keep it for verifying signatures): <code className="break-all">{secret}</code>
        </p>
      )}
    </section>
  );
}

const severities = ['low', 'medium', 'high', 'critical'] as const;

function RoutingForm() {
  const routing = useRouting();
  const channels = useChannels();
  const [draft, setDraft] = useState<Routing | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useNotifyMutation((r: Routing) => notifyApi.setRouting(r));
  if (routing.isLoading || channels.isLoading) return <p className="text-sm text-slate-500">Loading routing…</p>;
  if (routing.error) return <ErrorBox message={errorMessage(routing.error, 'Failed to load your routing')} />;
  if (!routing.data) return null;
  const r: Routing = draft ?? { routes: routing.data.routes, min_severity: routing.data.min_severity, aggregate: routing.data.aggregate, aggregate_seconds: routing.data.aggregate_seconds };
  const chans = channels.data ?? [];
  const edit = (next: Routing) => {
    setDraft(next);
    setSaved(false);
  };
  const toggle = (type: string, id: string, on: boolean) => {
    const cur = r.routes[type] ?? [];
    edit({ ...r, routes: { ...r.routes, [type]: on ? [...cur, id] : cur.filter((c) => c !== id) } });
  };
  const fields = save.error instanceof ApiError ? save.error.fields : {};
  return (
    <section aria-label="Routing" className="space-y-3">
      <h3 className="font-medium">Which events go where</h3>
      {chans.length === 0 ? (
        <p className="text-sm text-slate-500">Add a channel to route events to it.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 pr-3 font-medium">Event</th>
                {chans.map((c) => (
                  <th key={c.id} className="py-1 pr-3 font-medium">
                    {c.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {routing.data.event_types.map((t) => (
                <tr key={t}>
                  <td className="py-1 pr-3 font-mono text-xs">{t}</td>
                  {chans.map((c) => (
                    <td key={c.id} className="py-1 pr-3">
                      <input type="checkbox" aria-label={`${t} to ${c.name}`} checked={(r.routes[t] ?? []).includes(c.id)} onChange={(e) => toggle(t, c.id, e.target.checked)} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <label>
          Minimum severity{' '}
          <select value={r.min_severity} onChange={(e) => edit({ ...r, min_severity: e.target.value as Routing['min_severity'] })} className="rounded border px-2 py-1 dark:bg-slate-800">
            {severities.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={r.aggregate} onChange={(e) => edit({ ...r, aggregate: e.target.checked, aggregate_seconds: e.target.checked ? r.aggregate_seconds || 5 : 0 })} />{' '}
          Combine a burst of one event type into one message with a count, over
        </label>
        <input
          type="number"
          aria-label="Aggregation window in seconds"
          className="w-20 rounded border px-2 py-1 dark:bg-slate-800"
          value={r.aggregate_seconds}
          disabled={!r.aggregate}
          onChange={(e) => edit({ ...r, aggregate_seconds: Number(e.target.value) })}
        />{' '}
        s
      </div>
      {Object.entries(fields).map(([f, m]) => (
        <p key={f} className="text-xs text-red-600">
          {f}: {m}
        </p>
      ))}
      {save.error && !Object.keys(fields).length && <ErrorBox message={errorMessage(save.error, 'Failed to save the routing')} />}
      <button type="button" className={btn.primary} disabled={save.isPending || !draft} onClick={() => save.mutate(r, { onSuccess: () => (setDraft(null), setSaved(true)) })}>
        Save routing
      </button>
      {saved && (
        <p role="status" className="text-sm">
          Routing saved.
        </p>
      )}
    </section>
  );
}

function DeliveryLog() {
  const { data: me } = useMe();
  const [allFailures, setAllFailures] = useState(false);
  const log = useDeliveries(allFailures);
  const channels = useChannels();
  const name = (d: Delivery) => (d.owner !== me?.id ? `${d.channel} (another user's)` : (channels.data?.find((c) => c.id === d.channel)?.name ?? 'deleted channel'));
  return (
    <section aria-label="Delivery log" className="space-y-2">
      <h3 className="font-medium">Delivery log</h3>
      {me?.role === 'operator' && (
        <label className="text-sm">
          <input type="checkbox" checked={allFailures} onChange={(e) => setAllFailures(e.target.checked)} /> Every user's failures
        </label>
      )}
      {log.error && <ErrorBox message={errorMessage(log.error, 'Failed to load the delivery log')} />}
      {log.data?.length === 0 && <p className="text-sm text-slate-500">Nothing sent yet.</p>}
      {!!log.data?.length && (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 pr-3 font-medium">Time</th>
                <th className="py-1 pr-3 font-medium">Event</th>
                <th className="py-1 pr-3 font-medium">Channel</th>
                <th className="py-1 pr-3 font-medium">Status</th>
                <th className="py-1 pr-3 font-medium">Attempts</th>
                <th className="py-1 font-medium">Last error</th>
              </tr>
            </thead>
            <tbody>
              {log.data.map((d) => (
                <tr key={d.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="py-1 pr-3">{formatDateTime(d.created_at)}</td>
                  <td className="py-1 pr-3 font-mono text-xs">
                    {d.type}
                    {d.count > 1 && ` ×${d.count}`}
                  </td>
                  <td className="py-1 pr-3">{name(d)}</td>
                  <td className="py-1 pr-3">{d.status}</td>
                  <td className="py-1 pr-3">{d.attempts}</td>
                  <td className="py-1 text-red-600">{d.last_error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
