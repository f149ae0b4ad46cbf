import { useState } from 'react';
import { ErrorBox, Field } from '@/components/Field';
import { btn } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { formatDateTime } from '@/lib/format';
import { BrowserPush } from './BrowserPush';
import { notifyApi, useChannels, useDeliveries, useNotifyMutation, useRouting, type Channel, type ChannelInput, type Delivery, type Routing } from '../notifyApi';

/** Account -> Notifications: channels (webhooks, Telegram, email, browser push), which events go where, and what was delivered. */
export function Notifications() {
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-500">
        Webhooks are signed (Standard Webhooks); Telegram messages go through your own bot; email through the server's mail server; browser push
        through your browser's push service, encrypted for this browser. Every message is retried for 24 hours until the receiver takes it.
      </p>
      <BrowserPush />
      <Channels />
      <RoutingForm />
      <DeliveryLog />
    </div>
  );
}

type Kind = 'webhook' | 'telegram' | 'email';

/** Where a channel sends, as its list shows it (a push endpoint by its service only: its path is the subscription's capability). */
function target(c: Channel) {
  if (c.kind === 'push') {
    let host: string;
    try {
      host = new URL(c.url).host;
    } catch {
      host = 'push service';
    }
    return `Browser push via ${host}${c.enabled ? '' : ' (off: the subscription ended)'}`;
  }
  return c.kind === 'telegram' ? `Telegram chat ${c.address}` : c.kind === 'email' ? `Email to ${c.address}` : c.url;
}

function Channels() {
  const channels = useChannels();
  const [kind, setKind] = useState<Kind>('webhook');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [chat, setChat] = useState('');
  const [token, setToken] = useState('');
  const [email, setEmail] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const create = useNotifyMutation((c: ChannelInput) => notifyApi.create(c));
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
          <li key={c.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-medium">{c.name}</span>
            <span className="min-w-0 truncate text-slate-500">{target(c)}</span>
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
        className={`grid gap-2 sm:items-end ${kind === 'telegram' ? 'sm:grid-cols-[auto_1fr_1fr_2fr_auto]' : 'sm:grid-cols-[auto_1fr_2fr_auto]'}`}
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(kind === 'telegram' ? { kind, name, address: chat, bot_token: token } : kind === 'email' ? { kind, name, address: email } : { kind, name, url }, {
            onSuccess: (c) => {
              setSecret(c.secret || null);
              setName('');
              setUrl('');
              setChat('');
              setToken('');
              setEmail('');
            },
          });
        }}
      >
        <div>
          <label htmlFor="channel-kind" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Kind
          </label>
          <select
            id="channel-kind"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as Kind);
              create.reset();
            }}
            className="mt-1 rounded border border-slate-300 bg-white px-2 py-2 text-sm dark:border-slate-700 dark:bg-slate-800"
          >
            <option value="webhook">Webhook</option>
            <option value="telegram">Telegram</option>
            <option value="email">Email</option>
          </select>
        </div>
        <Field id="hook-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} error={fields.name} />
        {kind === 'email' ? (
          <Field id="mail-to" label="Email address" type="email" value={email} placeholder="me@example.com" onChange={(e) => setEmail(e.target.value)} error={fields.address} />
        ) : kind === 'webhook' ? (
          <Field id="hook-url" label="Webhook URL" value={url} placeholder="https://example.com/hooks/kestrel" onChange={(e) => setUrl(e.target.value)} error={fields.url} />
        ) : (
          <>
            <Field id="tg-chat" label="Chat id" value={chat} placeholder="123456789 or @channel" onChange={(e) => setChat(e.target.value)} error={fields.address} />
            <Field
              id="tg-token"
              label="Bot token (from BotFather)"
              type="password"
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              error={fields.bot_token}
            />
          </>
        )}
        <button type="submit" className={btn.primary} disabled={create.isPending}>
          {kind === 'telegram' ? 'Add Telegram' : kind === 'email' ? 'Add email' : 'Add webhook'}
        </button>
      </form>
      {kind === 'email' && (
        <p className="text-xs text-slate-500">
          Mail goes through the mail server an operator sets in Settings → System (notification servers), and only while the Email switch is on in Settings → UI
          Preferences → Notifications.
        </p>
      )}
      {kind === 'telegram' && (
        <p className="text-xs text-slate-500">The token is stored encrypted and never shown again. Send your bot a message first, or add it to the group, so it may write to the chat.</p>
      )}
      {create.error && !Object.keys(fields).length && <ErrorBox message={errorMessage(create.error, 'Failed to add the channel')} />}
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
  const d = routing.data;
  const r: Routing = draft ?? {
    routes: d.routes,
    min_severity: d.min_severity,
    aggregate: d.aggregate,
    aggregate_seconds: d.aggregate_seconds,
    quiet_from: d.quiet_from ?? '',
    quiet_to: d.quiet_to ?? '',
    quiet_timezone: d.quiet_timezone ?? '',
  };
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
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <span className="self-center">Quiet hours (all but critical events wait until they end)</span>
        <label>
          From{' '}
          <input
            type="time"
            aria-label="Quiet hours from"
            value={r.quiet_from ?? ''}
            onChange={(e) => edit({ ...r, quiet_from: e.target.value })}
            className="rounded border px-2 py-1 dark:bg-slate-800"
          />
        </label>
        <label>
          to{' '}
          <input type="time" aria-label="Quiet hours to" value={r.quiet_to ?? ''} onChange={(e) => edit({ ...r, quiet_to: e.target.value })} className="rounded border px-2 py-1 dark:bg-slate-800" />
        </label>
        <label>
          time zone{' '}
          <input
            aria-label="Quiet hours time zone"
            placeholder="UTC"
            value={r.quiet_timezone ?? ''}
            onChange={(e) => edit({ ...r, quiet_timezone: e.target.value })}
            className="w-40 rounded border px-2 py-1 dark:bg-slate-800"
          />
        </label>
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
