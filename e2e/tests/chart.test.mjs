// The dashboard chart on another market: the watchlist switches it to ETH-USD, the timeframe switch changes its
// bars, the link reproduces the view, and an ETH position shows its entry and protective stop as labelled lines.
// Desktop and a 390 px phone are photographed.
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

const money = (s) => Number(s.replace(/[^0-9.-]/g, ''));

test('switch the dashboard chart and watchlist to ETH-USD, with the position drawn', async () => {
  const { page, external, consoleErrors } = await newPage(browser, server.url, { width: 1280, height: 900 });
  await register(page, 'Cleo Chart', 'cleo@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));

  // Every market is listed with a live price; BTC-USD is the chart's first market.
  const watch = page.getByTestId('watchlist');
  for (const s of ['BTC-USD', 'ETH-USD', 'ADA-USD', 'SOL-USD']) await watch.getByTestId(`watch-${s}`).filter({ hasText: '$' }).waitFor();
  await page.getByText('BTC-USD Price Chart · 1 hour').waitFor();
  assert.equal(await page.getByTestId(`watch-BTC-USD`).getAttribute('aria-pressed'), 'true');

  // A market BUY of ETH gets a protective stop.
  const buy = await api(server.url, 'POST', '/api/trading/execute', { token, body: { symbol: 'ETH-USD', action: 'BUY', quantity: '0.1', order_type: 'market', strategy: 'manual' } });
  assert.equal(buy.success, true, JSON.stringify(buy.error));

  // The watchlist row switches the chart, the price card and the link.
  await watch.getByTestId('watch-ETH-USD').click();
  await page.getByText('ETH-USD Price Chart · 1 hour').waitFor();
  await page.waitForURL(/\?symbol=ETH-USD&tf=1h$/);
  assert.equal(await page.getByTestId('watch-ETH-USD').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByTestId('watch-BTC-USD').getAttribute('aria-pressed'), 'false');
  const ethPrice = money(await page.getByTestId('watch-ETH-USD').getByTestId('watch-price').innerText());
  assert.ok(ethPrice > 0 && Math.abs(money(await page.getByTestId('price-card-price').innerText()) - ethPrice) / ethPrice < 0.05, 'the price card shows ETH');
  await page.getByTestId('price-chart').locator('canvas').first().waitFor();

  // The position's entry and protective stop, labelled with the quantity each covers.
  await page.getByTestId('chart-level-entry').getByText('Entry 0.1 @ $').waitFor();
  await page.getByTestId('chart-level-stop_loss').getByText('SL 0.1 @ $').waitFor();
  const entry = money((await page.getByTestId('chart-level-entry').innerText()).split('@')[1]);
  const stop = money((await page.getByTestId('chart-level-stop_loss').innerText()).split('@')[1]);
  assert.ok(stop > 0 && stop < entry, `stop ${stop} below entry ${entry}`);

  // Every timeframe the switch offers is served; the link keeps the last one and reproduces the view.
  const frames = page.getByRole('group', { name: 'Timeframe' }).getByRole('button');
  const labels = await frames.allInnerTexts();
  assert.deepEqual(labels, ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '1d']);
  for (const tf of labels) {
    const wait = page.waitForResponse((r) => r.url().includes('/api/market-data/candles/ETH-USD?') && r.request().method() === 'GET');
    await frames.filter({ hasText: new RegExp(`^${tf}$`) }).click();
    assert.equal((await wait).status(), 200, `${tf} candles`);
    await page.waitForURL(new RegExp(`tf=${tf}$`));
    assert.equal(await page.getByText('Failed to load chart data').count(), 0, tf);
  }
  await page.getByRole('group', { name: 'Timeframe' }).getByRole('button', { name: '15m' }).click();
  await page.getByText('ETH-USD Price Chart · 15 minutes').waitFor();
  await page.waitForURL(/\?symbol=ETH-USD&tf=15m$/);
  await page.reload();
  await page.getByText('ETH-USD Price Chart · 15 minutes').waitFor();
  await page.getByTestId('chart-level-entry').waitFor();
  assert.equal(await page.getByText('Failed to load chart data').count(), 0);
  await page.getByTestId('price-chart').locator('canvas').first().waitFor();
  await shot(page, 'chart-eth-1280');

  // Phone width: nothing overflows the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByText('ETH-USD Price Chart · 15 minutes').waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page overflows by ${overflow}px at 390 px`);
  await shot(page, 'chart-eth-390');

  assert.deepEqual(external, [], 'the app must not contact any other host');
  assert.deepEqual(consoleErrors, []);
});
