// Analytics from real trades: buy and partly sell BTC, then the Trading
// Performance tab shows that trade and Portfolio Analytics the holding.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { api, startServer } from '../lib/server.mjs';
import { dismissAlerts, register } from '../lib/flows.mjs';

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
  const token = await page.evaluate(() => localStorage.getItem('kestrel_token'));
  for (const body of [
    { symbol: 'BTC-USD', action: 'BUY', quantity: 0.01 },
    { symbol: 'BTC-USD', action: 'SELL', quantity: 0.004 },
  ]) {
    const r = await api(server.url, 'POST', '/api/trading/execute', { token, body });
    assert.equal(r.success, true, JSON.stringify(r.error));
  }

  await page.goto('/analytics');
  await page.getByRole('heading', { name: 'Analytics Dashboard' }).waitFor();
  await dismissAlerts(page);
  // One closing SELL: one trade, as the server counts them (docs/ANALYTICS.md).
  await page.getByTestId('line-Total Trades').getByText('1', { exact: true }).waitFor();
  await page.getByTestId('stat-Win Rate').waitFor();
  await shot(page, 'analytics-trading');

  await page.getByRole('tab', { name: 'Portfolio Analytics' }).click();
  const row = page.getByTestId('holding-row').filter({ hasText: 'BTC-USD' });
  await row.getByText('0.006', { exact: false }).first().waitFor();
  await shot(page, 'analytics-portfolio');

  for (const tab of ['Market Analytics', 'AI Strategy Analytics', 'Risk Analytics']) {
    await page.getByRole('tab', { name: tab }).click();
    await page.getByRole('tabpanel').waitFor();
    assert.equal(await page.getByText('Error Loading Data').count(), 0, `${tab} loads`);
  }
  await shot(page, 'analytics-risk');
  assert.deepEqual(consoleErrors, []);
});
