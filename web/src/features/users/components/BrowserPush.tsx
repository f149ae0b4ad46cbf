import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorBox } from '@/components/Field';
import { btn } from '@/components/Modal';
import { errorMessage } from '@/lib/api';
import { applicationServerKey, pushAvailable, registerServiceWorker } from '@/lib/serviceWorker';
import { notifyApi, notifyKey, useChannels } from '../notifyApi';
import { settingsKeys } from '@/lib/queryKeys';

/** A name for this browser's channel, e.g. "Chrome on Android". */
export function browserName(ua: string): string {
  const family = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : '';
  return os ? `${family} on ${os}` : family;
}

function sameKey(have: ArrayBuffer | null, want: Uint8Array): boolean {
  if (!have) return false;
  const a = new Uint8Array(have);
  return a.length === want.length && a.every((b, i) => b === want[i]);
}

/** This browser's push subscription's endpoint, if it has one. */
async function currentEndpoint(): Promise<string | null> {
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = await reg?.pushManager.getSubscription();
  return sub?.endpoint ?? null;
}

/**
 * "Enable browser notifications": asks the browser's permission only when
 * clicked, subscribes with the server's VAPID key and adds the push channel
 * (the same browser subscribing again turns its channel back on).
 */
export function BrowserPush() {
  const supported = pushAvailable();
  const channels = useChannels();
  const qc = useQueryClient();
  const [permission, setPermission] = useState<NotificationPermission>(supported ? Notification.permission : 'default');
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!supported) return;
    let live = true;
    currentEndpoint()
      .then((e) => live && setEndpoint(e))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [supported]);

  if (!supported) {
    return (
      <p role="note" className="text-sm text-slate-500">
        This browser cannot receive push notifications here: Web Push needs a browser that supports it and a secure connection (HTTPS, or localhost).
      </p>
    );
  }
  const mine = (channels.data ?? []).find((c) => c.kind === 'push' && c.url === endpoint);
  const enable = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const perm = await Notification.requestPermission();
      setPermission(perm);
      if (perm !== 'granted') return;
      if (!(await registerServiceWorker())) throw new Error('The browser did not accept the service worker that shows notifications.');
      const reg = await navigator.serviceWorker.ready;
      const key = applicationServerKey((await notifyApi.pushKey()).public_key);
      let sub = await reg.pushManager.getSubscription();
      if (sub && !sameKey(sub.options.applicationServerKey, key)) {
        await sub.unsubscribe(); // made with another server key: it would be refused
        sub = null;
      }
      sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      const keys = sub.toJSON().keys ?? {};
      const ch = await notifyApi.create({
        kind: 'push',
        name: browserName(navigator.userAgent),
        subscription: { endpoint: sub.endpoint, keys: { p256dh: keys.p256dh ?? '', auth: keys.auth ?? '' } },
      });
      await notifyApi.allowPush();
      setEndpoint(sub.endpoint);
      setDone(`Browser notifications are on. Choose below which events go to “${ch.name}”.`);
    } catch (e) {
      setError(errorMessage(e, 'Could not turn on browser notifications'));
    } finally {
      setBusy(false);
      void qc.invalidateQueries({ queryKey: notifyKey });
      void qc.invalidateQueries({ queryKey: settingsKeys.doc });
    }
  };
  return (
    <div className="space-y-2">
      {permission === 'denied' ? (
        <p role="alert" className="text-sm text-amber-700 dark:text-amber-400">
          Notifications are blocked for this site in your browser. Allow them in the browser's site settings, then enable them here again.
        </p>
      ) : mine?.enabled ? (
        <p className="text-sm text-slate-500">This browser receives push notifications (channel “{mine.name}”).</p>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={btn.primary} disabled={busy} onClick={() => void enable()}>
            {busy ? 'Enabling…' : 'Enable browser notifications'}
          </button>
          <span className="text-xs text-slate-500">
            {mine ? 'This browser’s subscription ended; enable again to renew it.' : 'Your browser asks for permission; notices arrive even with Kestrel closed.'}
          </span>
        </div>
      )}
      {error && <ErrorBox message={error} />}
      {done && (
        <p role="status" className="text-sm">
          {done}
        </p>
      )}
    </div>
  );
}
