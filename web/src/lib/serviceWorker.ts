/**
 * The app's service worker (public/sw.js): it shows Web Push notifications
 * and opens the app when one is clicked. Browsers allow service workers in a
 * secure context only (HTTPS, or http://localhost and 127.0.0.1).
 */
export function serviceWorkerAvailable(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/** Whether this browser, here, can receive Web Push. */
export function pushAvailable(): boolean {
  return serviceWorkerAvailable() && 'PushManager' in window && 'Notification' in window;
}

/** Registers /sw.js for the whole app; undefined where it cannot (or the browser refused). */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!serviceWorkerAvailable()) return undefined;
  try {
    return await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch {
    return undefined;
  }
}

/** A VAPID public key (base64url, as the server gives it) as the bytes PushManager.subscribe takes. */
export function applicationServerKey(key: string): Uint8Array<ArrayBuffer> {
  const b64 = key.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (key.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
