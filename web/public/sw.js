// Kestrel's service worker: shows Web Push notifications (issue 26) and
// opens the app when one is clicked. It caches nothing: the app is served
// by the Kestrel server itself, and a stale trading screen is worse than
// none. Served from / with Cache-Control: no-cache, so an update is picked
// up at the next page load.

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

// A message is the server's PushNote: {id, type, severity, title, body,
// count, order_id, url, timestamp}. One that cannot be read still shows a
// notice: a browser may stop delivering to a worker that shows none.
self.addEventListener('push', (event) => {
  let note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch {
    note = { body: event.data ? event.data.text() : '' };
  }
  const title = note.title || 'Kestrel';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: note.body || '',
      tag: note.type ? `${note.type}:${note.order_id || note.id || ''}` : undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      timestamp: note.timestamp ? Date.parse(note.timestamp) : Date.now(),
      requireInteraction: note.severity === 'critical',
      data: { url: sameOrigin(note.url) },
    }),
  );
});

// A click focuses an open Kestrel window (taking it to the notice's page)
// or opens one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOrigin(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const wins = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const w of wins) {
        if (new URL(w.url).origin === self.location.origin) {
          await w.focus();
          if ('navigate' in w && new URL(w.url).pathname !== url) await w.navigate(url).catch(() => undefined);
          return;
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});

// sameOrigin keeps a notice's link inside the app: a path, never another site.
function sameOrigin(url) {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return '/';
  return url;
}
