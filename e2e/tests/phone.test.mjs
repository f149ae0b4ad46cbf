// Every screen at a 390 px phone, with an account that has a position, a
// protective stop, a resting order and a fill: no screen is wider than the
// phone (wide tables scroll inside their cards, never the page). Each screen
// is photographed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { api, startServer } from '../lib/server.mjs';
import { register } from '../lib/flows.mjs';

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

// Each route with the heading it shows once loaded.
const screens = [
  ['/dashboard', 'Trading Dashboard'],
  ['/trading', 'Trading Center'],
  ['/trading/trade', 'New Trade'],
  ['/trading/positions', 'Positions'],
  ['/trading/portfolio', 'Portfolio Overview'],
  ['/trading/orders', 'Orders'],
  ['/trading/history', 'Trade History'],
  ['/strategy', 'Strategy Management'],
  ['/strategy/ai', 'AI Strategy Configuration'],
  ['/strategy/technical', 'Technical Analysis Strategy'],
  ['/strategy/performance', 'Strategy Performance'],
  ['/strategy/history', 'Strategy History and Analytics'],
  ['/strategy/backtest', 'Strategy Backtesting'],
  ['/strategy/research', 'Research'],
  ['/analytics', 'Analytics Dashboard'],
  ['/settings', 'Settings'],
  ['/users', 'Users'],
  ['/account', 'Account'],
];

test('every screen fits a 390 px phone', async () => {
  const { page, external, consoleErrors } = await newPage(browser, server.url, { width: 390, height: 844 });
  await register(page, 'Pia Phone', 'pia@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  // Something on every trading screen: a fill with its protective stop, and a resting limit.
  const buy = await api(server.url, 'POST', '/api/trading/execute', { token, body: { symbol: 'BTC-USD', action: 'BUY', quantity: '0.01', order_type: 'market', strategy: 'manual' } });
  assert.equal(buy.success, true, JSON.stringify(buy.error));
  const limit = await api(server.url, 'POST', '/api/trading/orders/limit', { token, body: { symbol: 'ETH-USD', side: 'BUY', quantity: '0.1', price: '1000' } });
  assert.equal(limit.success, true, JSON.stringify(limit.error));

  const wide = [];
  for (const [path, heading] of screens) {
    await page.goto(path);
    await page.getByRole('heading', { name: heading, exact: false }).first().waitFor();
    await page.waitForLoadState('networkidle').catch(() => {});
    // Charts follow their container's width on the next frames: let the layout settle first.
    await page.waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth, null, { timeout: 3000 }).catch(() => {});
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await shot(page, `phone${path.replaceAll('/', '-')}`);
    if (overflow > 0) wide.push(`${path}: ${overflow}px`);
  }
  assert.deepEqual(wide, [], `screens wider than 390 px: ${wide.join(', ')}`);
  assert.deepEqual(external, []);
  assert.deepEqual(consoleErrors.filter((e) => !/404|Failed to load resource/.test(e)), []);
});
