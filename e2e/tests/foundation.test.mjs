// A new user registers, visits every screen from the navigation, meets the 404
// page, logs out, and a stale token bounces to /login.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const screens = [
  ['Dashboard', null, '/dashboard', 'Trading Dashboard'],
  ['Trading', null, '/trading', 'Trading Center'],
  ['Trading', 'New Trade', '/trading/trade', 'New Trade'],
  ['Trading', 'Positions', '/trading/positions', 'Positions'],
  ['Trading', 'Portfolio', '/trading/portfolio', 'Portfolio Overview'],
  ['Trading', 'Orders', '/trading/orders', 'Orders'],
  ['Trading', 'Trade History', '/trading/history', 'Trade History'],
  ['Strategy', null, '/strategy', 'Strategy Management'],
  ['Strategy', 'AI Configuration', '/strategy/ai', 'AI Strategy Configuration'],
  ['Strategy', 'Technical Analysis', '/strategy/technical', 'Technical Analysis Strategy'],
  ['Strategy', 'Performance', '/strategy/performance', 'Strategy Performance'],
  ['Strategy', 'History & Analytics', '/strategy/history', 'Strategy History and Analytics'],
  ['Strategy', 'Backtesting', '/strategy/backtest', 'Strategy Backtesting'],
  ['Analytics', null, '/analytics', 'Analytics Dashboard'],
  ['Settings', null, '/settings', 'Settings'],
];

test('register, browse every route, 404, logout, 401 bounce', async () => {
  const { page, context, external, consoleErrors } = await newPage(browser, server.url);
  // The realtime socket opens under the CSP's connect-src 'self' with a
  // single-use ticket in its URL, never the session token, and receives frames.
  const sockets = [];
  let framesReceived = 0;
  page.on('websocket', (ws) => {
    sockets.push(ws.url());
    ws.on('framereceived', () => framesReceived++);
  });
  await page.goto('/dashboard');
  await page.waitForURL('**/login');

  await page.getByRole('link', { name: 'Create one' }).click();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Name is required').waitFor();
  await shot(page, 'register-errors');

  await page.getByLabel('Name').fill('Olga Operator');
  await page.getByLabel('Email').fill('olga@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByTestId('current-user').getByText('operator').waitFor();
  await page.getByText('System Online').waitFor();
  await page.getByRole('heading', { level: 1, name: 'Trading Dashboard' }).waitFor();
  await shot(page, 'dashboard');
  for (let i = 0; i < 100 && framesReceived === 0; i++) await page.waitForTimeout(100);
  assert.ok(framesReceived > 0, `no realtime frame received (sockets: ${sockets.join(', ')})`);
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  assert.ok(sockets.length > 0 && sockets.every((u) => /\/api\/ws\?ticket=[\w-]+$/.test(u) && !u.includes(token)), `socket URLs: ${sockets.join(', ')}`);
  assert.deepEqual(consoleErrors.filter((e) => /Content Security Policy|Refused to connect/i.test(e)), [], 'no CSP violation');

  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [top, child, path, title] of screens) {
    if (child) {
      await nav.getByRole('link', { name: top, exact: true }).hover();
      await nav.getByRole('link', { name: child, exact: true }).click();
    } else {
      await nav.getByRole('link', { name: top, exact: true }).click();
    }
    await page.waitForURL(`**${path}`);
    await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
    const active = await nav.getByRole('link', { name: top, exact: true }).getAttribute('class');
    assert.match(active, /bg-blue-600/, `${top} should be highlighted on ${path}`);
  }

  await page.goto('/no/such/page');
  await page.getByText("The page you're looking for doesn't exist.").waitFor();
  await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
  await shot(page, 'not-found');

  // The mobile menu holds the same links.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByRole('button', { name: 'Toggle menu' }).click();
  await page.getByTestId('mobile-menu').getByRole('link', { name: 'Backtesting' }).click();
  await page.waitForURL('**/strategy/backtest');
  await shot(page, 'mobile');
  await page.setViewportSize({ width: 1366, height: 900 });

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('kestrel_token')), null);

  // A token the server does not know: the first API call answers 401 and the app goes to /login.
  await page.evaluate(() => sessionStorage.setItem('kestrel_token', 'stale-token'));
  await page.goto('/trading/orders');
  await page.waitForURL(/\/login\?next=%2Ftrading%2Forders$/); // signing in returns to the page asked for
  assert.equal(await page.evaluate(() => sessionStorage.getItem('kestrel_token')), null);

  // Sign back in with the account.
  await page.getByLabel('Email').fill('olga@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/trading/orders'); // back where the expired session was

  assert.deepEqual(external, [], 'the app must not contact any other host');
  await context.close();
});
