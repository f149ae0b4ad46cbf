// Analytics from real trades: buy and partly sell BTC, buy ETH, then the
// Trading Performance tab shows that trade, Portfolio Analytics the holdings
// and today's allocation, Risk Analytics the scenarios; every tab is shot.
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

test('trades show on Trading Performance, holdings on Portfolio Analytics', async () => {
  const { page, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Ana Analyst', 'ana@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  for (const body of [
    { symbol: 'BTC-USD', action: 'BUY', quantity: 0.01 },
    { symbol: 'BTC-USD', action: 'SELL', quantity: 0.004 },
    { symbol: 'ETH-USD', action: 'BUY', quantity: 0.5 },
  ]) {
    const r = await api(server.url, 'POST', '/api/trading/execute', { token, body });
    assert.equal(r.success, true, JSON.stringify(r.error));
  }

  await page.goto('/analytics');
  await page.getByRole('heading', { name: 'Analytics Dashboard' }).waitFor();
  // A partial SELL closes no round trip: no trade yet, as every screen counts them (docs/ANALYTICS.md).
  await page.getByTestId('line-Total Trades').getByText('0', { exact: true }).waitFor();
  await page.getByTestId('stat-Win Rate').waitFor();
  // A new account's record covers minutes of the 30 days asked for, and the screen says so.
  await page.getByTestId('coverage-note').getByText(/^Data covers only .* of the 30 days asked for\.$/).waitFor();
  await shot(page, 'analytics-trading');

  await page.getByRole('tab', { name: 'Portfolio Analytics' }).click();
  const row = page.getByTestId('holding-row').filter({ hasText: 'BTC-USD' });
  await row.getByText('0.006', { exact: false }).first().waitFor();
  // Today's column of the allocation history: the BTC and ETH held at today's close, and the cash.
  const allocation = page.getByTestId('chart-allocation-history');
  await allocation.waitFor();
  const today = new Date().toISOString().slice(0, 10);
  // Only today's column (a trade placed just before midnight UTC would add yesterday's).
  const segments = (await allocation.locator('rect title').allTextContents()).filter((t) => t.startsWith(today));
  assert.deepEqual(
    segments.map((t) => t.split(':')[0]),
    [`${today} BTC-USD`, `${today} ETH-USD`, `${today} USD`],
  );
  assert.match(segments[0], /: \d+\.\d\d% \(\$[\d,]+\.\d\d: 0\.006 at \$[\d,]+\.\d\d\)$/);
  const shares = segments.map((t) => Number(t.match(/: ([\d.]+)%/)[1]));
  assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 100) <= 0.02, `shares ${shares} add up to 100`);
  await shot(page, 'analytics-portfolio');

  for (const [tab, name] of [
    ['Market Analytics', 'market'],
    ['AI Strategy Analytics', 'ai'],
    ['Risk Analytics', 'risk'],
  ]) {
    await page.getByRole('tab', { name: tab }).click();
    await page.getByRole('tabpanel').waitFor();
    if (name === 'risk') {
      // The scenarios from the shipped daily history, each with its impact on these holdings and its frequency.
      await page.getByTestId('scenario-row').first().waitFor();
      assert.equal(await page.getByTestId('scenario-row').count(), 4);
      assert.match(await page.getByTestId('scenario-row').first().innerText(), /BTC-USD falls 10% or more in a day[\s\S]*0\.13% \(1 of 749 1-day windows\)[\s\S]*-\$/);
      assert.equal(await page.getByTestId('stress-card').count(), 6);
    } else {
      await page.getByRole('tabpanel').locator('section').first().waitFor();
    }
    assert.equal(await page.getByText('Error Loading Data').count(), 0, `${tab} loads`);
    await shot(page, `analytics-${name}`);
  }
  assert.deepEqual(consoleErrors, []);
});
