// The installable web app: the manifest is linked and served with its
// icons, the service worker (shared with Web Push) registers on
// http://127.0.0.1 (a secure context), the page logs no CSP violation, and
// Account → Notifications offers browser notifications at desktop and
// phone width.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, newPage } from '../lib/browser.mjs';
import { register } from '../lib/flows.mjs';
import { startServer } from '../lib/server.mjs';

let server;
let browser;
const shots = process.env.SHOTS_DIR;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// pngSize reads a PNG's width and height from its IHDR chunk.
function pngSize(buf) {
  assert.equal(buf.subarray(1, 4).toString(), 'PNG', 'not a PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

test('the manifest is linked and served, the service worker registers, and no CSP violation is logged', async () => {
  const { page, context, external, consoleErrors } = await newPage(browser, server.url, { width: 1280, height: 900 });
  await register(page, 'Wren', 'wren@example.com');

  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  assert.equal(href, '/manifest.webmanifest');
  assert.equal(await page.locator('meta[name="theme-color"]').getAttribute('content'), '#0f172a');
  const res = await page.request.get(href);
  assert.equal(res.status(), 200);
  assert.equal(res.headers()['content-type'], 'application/manifest+json');
  const m = await res.json();
  assert.equal(m.name, 'Kestrel');
  assert.equal(m.display, 'standalone');
  assert.equal(m.start_url, '/');
  const sizes = {};
  for (const icon of m.icons.filter((i) => i.type === 'image/png')) {
    const r = await page.request.get(icon.src);
    assert.equal(r.status(), 200, icon.src);
    assert.equal(r.headers()['content-type'], 'image/png', icon.src);
    const [w, h] = pngSize(await r.body());
    assert.equal(`${w}x${h}`, icon.sizes, icon.src);
    sizes[`${icon.sizes} ${icon.purpose}`] = true;
  }
  assert.deepEqual(Object.keys(sizes).sort(), ['192x192 any', '512x512 any', '512x512 maskable']);

  const sw = await page.request.get('/sw.js');
  assert.equal(sw.headers()['cache-control'], 'no-cache');
  const scriptURL = await page.evaluate(async () => {
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('navigator.serviceWorker.ready did not resolve in 10 s')), 10_000));
    const reg = await Promise.race([navigator.serviceWorker.ready, timeout]);
    return reg.active?.scriptURL ?? '';
  });
  assert.equal(scriptURL, `${server.url}/sw.js`);

  await page.goto('/account');
  const button = page.getByRole('button', { name: 'Enable browser notifications' });
  await button.waitFor();
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await button.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'account-notifications-1280.png') });
  }
  assert.deepEqual(consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e)), []);
  assert.deepEqual(external, []);
  await context.close();
});

test('the browser notifications button fits a phone', async () => {
  const { page, context, consoleErrors } = await newPage(browser, server.url, { width: 390, height: 844 });
  await page.goto('/login');
  await page.getByLabel('Email').fill('wren@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  await page.goto('/account');
  const button = page.getByRole('button', { name: 'Enable browser notifications' });
  await button.waitFor();
  const box = await button.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `button at ${JSON.stringify(box)}`);
  if (shots) {
    await button.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'account-notifications-390.png') });
  }
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the page scrolls sideways');
  assert.deepEqual(consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e)), []);
  await context.close();
});

// The first paint is the loading shell, drawn by index.html's inline styles while the stylesheet
// loads without blocking it; the stylesheet is switched on before React draws a screen, so the
// sign-in page is never shown unstyled, and the assets come gzip-compressed.
test('the loading shell paints first and the sign-in page is drawn styled', async () => {
  const { page, context } = await newPage(browser, server.url, { width: 1280, height: 900 });
  // Record, as the app starts, whether the stylesheet was on when React first put a form on screen.
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      if (!document.querySelector('form')) return;
      const link = document.querySelector('link[data-app-css]');
      window.__styledAtFirstForm = !!link && link.media === 'all' && !!link.sheet;
      obs.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  const res = await page.goto('/login');
  assert.equal(res.status(), 200);
  await page.getByRole('button', { name: /sign in/i }).waitFor();
  assert.equal(await page.evaluate(() => window.__styledAtFirstForm), true, 'a form was drawn before the stylesheet was on');
  assert.equal(await page.locator('link[data-app-css]').getAttribute('media'), 'all');
  // Styled: the button has the app's padding, not the browser's default.
  const padding = await page.getByRole('button', { name: /sign in/i }).evaluate((b) => getComputedStyle(b).paddingLeft);
  assert.notEqual(padding, '6px', 'the sign-in button has the browser default padding');
  const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
  assert.ok(paint > 0, 'no first contentful paint recorded');
  const css = await page.locator('link[data-app-css]').getAttribute('href');
  const asset = await page.request.get(css, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.equal(asset.status(), 200);
  assert.equal(asset.headers()['content-encoding'], 'gzip');
  await page.screenshot({ path: join(screensDir(), 'webapp-login-first-load.png') });
  await context.close();
});

function screensDir() {
  const dir = join(import.meta.dirname, '..', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
