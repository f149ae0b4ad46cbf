// Every screen at a 390 px phone, with an account that has a position, a
// protective stop, a resting order and a fill: no screen is wider than the
// phone, and the Orders, Trade History and Positions rows are cards (one per
// row, label and value pairs) whose price, status and buttons are on screen
// without scrolling sideways. Each screen is photographed.
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

  // Rows as cards: what a trader reads and presses is inside the 390 px.
  const cards = [
    ['/trading/orders', 'order-row', ['Price', 'Status'], 'Cancel'],
    ['/trading/history', 'trade-row', ['Price', 'Status'], 'View'],
    ['/trading/positions', 'position-row', ['Current Price', 'Stop-Loss / Take-Profit'], 'Close'],
    ['/users', 'user-card', ['Role', 'Status'], 'Disable'],
  ];
  const outside = [];
  for (const [path, testId, labels, action] of cards) {
    await page.goto(path);
    const card = page.getByTestId(testId).first();
    await card.waitFor();
    assert.equal(await page.getByRole('table').count(), 0, `${path} still draws a table at 390 px`);
    assert.equal(await card.getAttribute('data-layout'), 'card', `${path}: rows are not cards`);
    const parts = [...labels.map((l) => [l, card.locator(`[data-label="${l}"] dd`)]), [action, card.getByRole('button', { name: action })]];
    for (const [name, loc] of parts) {
      const box = await loc.boundingBox();
      if (!box || box.x < 0 || box.x + box.width > 390 || box.width === 0) outside.push(`${path} ${name}: ${JSON.stringify(box)}`);
    }
  }
  assert.deepEqual(outside, [], `not inside the phone's width: ${outside.join('; ')}`);
  assert.deepEqual(external, []);
  assert.deepEqual(consoleErrors.filter((e) => !/404|Failed to load resource/.test(e)), []);
});

// The trading screens under the period separator ('.' groups thousands, ',' marks decimals), photographed at a
// desktop width and at a phone's: every price, amount and quantity follows it, in the table and on the cards.
// A server of its own: the first account on a server is its operator, and Dora needs an account of her own.
test('Orders, Trade History and Positions follow the period separator at 1280 and 390 px', async (t) => {
  const own = await startServer();
  t.after(() => own.stop());
  const { page, consoleErrors } = await newPage(browser, own.url, { width: 1280, height: 900 });
  await register(page, 'Dora Decimal', 'dora@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  const buy = await api(own.url, 'POST', '/api/trading/execute', { token, body: { symbol: 'BTC-USD', action: 'BUY', quantity: '0.01', order_type: 'market', strategy: 'manual' } });
  assert.equal(buy.success, true, JSON.stringify(buy.error));
  const limit = await api(own.url, 'POST', '/api/trading/orders/limit', { token, body: { symbol: 'ETH-USD', side: 'BUY', quantity: '0.1', price: '1234.5' } });
  assert.equal(limit.success, true, JSON.stringify(limit.error));
  const set = await api(own.url, 'PUT', '/api/settings', { token, body: { ui: { display: { thousandsSeparator: '.' } } } });
  assert.equal(set.success, true, JSON.stringify(set.error));

  const screens = [
    ['/trading/orders', 'order-row'],
    ['/trading/history', 'trade-row'],
    ['/trading/positions', 'position-row'],
    ['/dashboard', 'watchlist'],
  ];
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    await page.setViewportSize({ width, height });
    for (const [path, testId] of screens) {
      await page.goto(path);
      await page.getByTestId(testId).first().waitFor();
      await page.waitForLoadState('networkidle').catch(() => {});
      await shot(page, `period-${width}${path.replaceAll('/', '-')}`);
    }
    await page.goto('/trading/orders');
    // The resting limit's price, with ',' for the decimals: "$1.234,50".
    await page.getByTestId('order-row').filter({ hasText: '$1.234,50' }).first().waitFor();
    const text = await page.getByTestId('order-row').first().innerText();
    assert.doesNotMatch(text, /\$\d{1,3}(,\d{3})*\.\d\d(?!\d)/, `a price in the comma format at ${width} px: ${text}`);
  }
  assert.deepEqual(consoleErrors.filter((e) => !/404|Failed to load resource/.test(e)), []);
});
