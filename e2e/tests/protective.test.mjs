// Risk rules that never trap a trader, in the browser: a BUY gets its
// protective stop-loss at once; the emergency stop leaves it armed; the
// position can still be sold while trading is halted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { api, startServer } from '../lib/server.mjs';
import { confirmIn, placeConfirmed, register } from '../lib/flows.mjs';

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


test('buy, see the protective stop, press Stop, sell while halted', async () => {
  const { page, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Pat Protected', 'pat@example.com');

  // Buy 0.01 BTC at market.
  await page.getByRole('button', { name: 'New Trade' }).click();
  const modal = page.getByRole('dialog', { name: 'Quick Trade' });
  await modal.getByTestId('tf-current-price').filter({ hasText: '$' }).waitFor();
  await modal.getByLabel('Quantity').fill('0.01');
  await placeConfirmed(page, modal, 'BUY');
  await modal.waitFor({ state: 'detached' });
  await page.getByLabel('Trade notifications').getByText('Filled: BUY 0.01 BTC-USD').waitFor();

  // The protective stop-loss (stop loss is on by default, 2% under the fill) appears, linked to the buy.
  await page.goto('/trading/orders');
  const protective = page.getByTestId('order-row').filter({ hasText: 'Protective' }).filter({ hasText: 'Stop-Loss' });
  await protective.filter({ hasText: 'open' }).waitFor();
  await protective.getByText(/Parent order/).waitFor();
  await shot(page, 'orders-protective-stop');

  // Trade History and Recent Trades list fills: the buy's one fill, never the stop's resting SELL (issue 27).
  await page.goto('/trading/history');
  await page.getByTestId('trade-count').getByText('1 of 1 trades').waitFor();
  await page.getByTestId('trade-row').filter({ hasText: 'BUY' }).filter({ hasText: 'executed' }).filter({ hasText: 'Market' }).waitFor();
  assert.equal(await page.getByTestId('trade-row').filter({ hasText: 'SELL' }).count(), 0, 'no SELL in the history');
  await shot(page, 'history-fills');
  await page.goto('/dashboard');
  await page.getByTestId('recent-trades').getByText(/0\.01 BTC-USD @ \$/).waitFor();
  assert.equal(await page.getByTestId('recent-trades').getByText('SELL').count(), 0, 'no SELL in Recent Trades');

  // Emergency stop: the protective stop stays armed.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await confirmIn(page, 'Emergency Stop', 'Stop trading');
  await page.getByText('Emergency Stop Active', { exact: true }).waitFor();
  // The header says the engine is halted, not 'System Healthy'.
  await page.getByTestId('health-badge').getByText('Trading Halted').waitFor();
  await page.getByTestId('system-indicator').getByText('Trading Halted').waitFor();
  await page.goto('/trading/orders');
  await protective.filter({ hasText: 'open' }).waitFor();

  // Selling the whole position while halted is accepted; the protective stop goes with it.
  await page.goto('/trading/positions');
  await page.getByRole('row', { name: /BTC-USD/ }).getByRole('button', { name: 'Close' }).click();
  const close = page.getByRole('dialog');
  assert.equal(await close.getByLabel('Quantity to close').inputValue(), '0.01');
  await close.getByRole('button', { name: 'Close Position' }).click();
  await page.getByText('No active positions').waitFor();
  await shot(page, 'positions-sold-while-halted');
  await page.goto('/trading/orders');
  await protective.filter({ hasText: 'cancelled' }).waitFor();
  assert.equal(await page.getByTestId('order-row').filter({ hasText: /\bopen\b/ }).count(), 0, 'no order left open');

  // Resume resolves the emergency stop's alert on the server, and the header stops saying halted.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Resume Trading' }).click();
  await page.getByText('Emergency Stop Active', { exact: true }).waitFor({ state: 'detached' });
  await page.getByTestId('health-badge').getByText(/System (Healthy|Issues)/).waitFor();
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  const open = await api(server.url, 'GET', '/api/system/alerts?resolved=false', { token });
  assert.deepEqual(open.data.alerts.filter((a) => a.title === 'Emergency stop active'), [], 'the alert is resolved');
  assert.deepEqual(consoleErrors, []);
});
