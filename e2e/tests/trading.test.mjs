// A trader's day on the real binary: watch the market, buy from the Quick
// Trade modal, see the position, history and cards change, rest a limit order,
// modify and cancel it, export history, guard the position with a stop-loss, press Stop
// (the stop-loss stays armed), sell while stopped, close the position.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { api, startServer } from '../lib/server.mjs';
import { confirmIn, openAlerts, placeConfirmed, register } from '../lib/flows.mjs';

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



// The Stop button's confirmation (web/src/app/StopButton.tsx STOP_CONFIRM).
const STOP_CONFIRM =
  'Emergency stop: halt automated trading, refuse new orders that add exposure and cancel resting orders that add exposure. Protective stop-loss sells stay armed, and you can still sell to reduce a position. Continue?';

const money = (s) => Number(s.replace(/[^0-9.-]/g, ''));

test('trade end to end in the browser', async () => {
  const { page, context, external, consoleErrors } = await newPage(browser, server.url);
  // The app confirms in its own dialogs: a native one would be a regression.
  const nativeDialogs = [];
  page.on('dialog', (d) => {
    nativeDialogs.push(d.message());
    void d.dismiss();
  });
  await register(page, 'Tom Trader', 'tom@example.com');
  // This day guards the position with a stop-loss placed by hand, so the
  // automatic protective stop is off here (protective.test.mjs covers it).
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  const off = await api(server.url, 'PUT', '/api/settings', { token, body: { trading: { automation: { enableStopLoss: false } } } });
  assert.equal(off.success, true, JSON.stringify(off.error));

  // The market moves: the BTC price card and chart are live.
  const price = page.getByTestId('price-card-price');
  await price.waitFor();
  assert.ok(money(await price.innerText()) > 1000, 'BTC price shown');
  await page.getByTestId('price-chart').locator('canvas').first().waitFor();
  assert.equal(await page.getByText('Failed to load chart data').count(), 0);
  await page.getByTestId('health-badge').getByText('System Healthy').waitFor();
  // The replayed market moves about once a second: the card follows within a few seconds.
  const first = await price.innerText();
  await page.waitForFunction((p) => document.querySelector('[data-testid="price-card-price"]')?.textContent !== p, first, { timeout: 10_000 });
  assert.equal(await page.getByTestId('card-total-trades').innerText().then((t) => t.includes('0')), true);
  await shot(page, 'dashboard-before-trade');

  // Buy 0.01 BTC-USD at market from the Quick Trade modal; it closes after the trade.
  await page.getByRole('button', { name: 'New Trade' }).click();
  const modal = page.getByRole('dialog', { name: 'Quick Trade' });
  await modal.getByTestId('tf-current-price').filter({ hasText: '$' }).waitFor();
  await modal.getByLabel('Quantity').fill('0.01');
  await modal.getByText('Est. Price').waitFor();
  // The form shows what is available and the fee at the server's rate.
  await modal.getByTestId('tf-available').filter({ hasText: 'Available USD: $' }).waitFor();
  await modal.getByText(/^Est\. Fee \(\d+(\.\d+)?% taker\)$/).waitFor();
  await shot(page, 'quick-trade');
  await modal.getByRole('button', { name: 'BUY BTC-USD' }).click();
  const confirmOrder = page.getByRole('dialog', { name: 'Confirm Order' });
  assert.equal(await confirmOrder.getByText('Quantity').locator('xpath=following-sibling::*[1]').innerText(), '0.01 BTC');
  await confirmOrder.getByText('Est. Total').waitFor();
  await confirmIn(page, 'Confirm Order', 'Confirm BUY');
  await modal.waitFor({ state: 'detached' });
  // The fill arrives over the realtime socket at once.
  await page.getByLabel('Trade notifications').getByText('Filled: BUY 0.01 BTC-USD').waitFor();

  await page.getByTestId('recent-trades').getByText('0.01 BTC-USD').waitFor();
  await page.getByTestId('card-active-positions').getByText('1', { exact: true }).waitFor();
  // A buy is not a closed trade: no round trip yet, so no win rate (issue 27).
  await page.getByTestId('card-total-trades').getByText('0', { exact: true }).waitFor();
  await shot(page, 'dashboard-after-trade');

  // The position.
  await page.goto('/trading/positions');
  const row = page.getByRole('row', { name: /BTC-USD/ });
  await row.getByText('+0.01').waitFor();
  await shot(page, 'positions');

  // Client-side validation mirrors the server's messages.
  await page.goto('/trading/trade');
  await page.getByRole('button', { name: 'Show Advanced' }).click();
  await page.getByLabel('Order Type').selectOption('limit');
  await page.getByLabel('Quantity').fill('0.01');
  await page.getByRole('button', { name: 'BUY BTC-USD' }).click();
  await page.getByText('Valid price is required for limit orders').waitFor();

  // A limit far below the market rests as an open order.
  await page.getByLabel('Limit Price').fill('1000');
  await placeConfirmed(page, page, 'BUY');
  await page.getByRole('status').getByText('(open)').waitFor();

  // Risk refusals come back with the server's reason.
  await page.getByLabel('Order Type').selectOption('market');
  await page.getByLabel('Quantity').fill('5');
  await placeConfirmed(page, page, 'BUY');
  await page.getByRole('form', { name: 'Trading form' }).getByRole('alert').getByText(/maximum trade amount/).waitFor();
  // The form said it; no system alert repeats it over the page (issue 27).
  await shot(page, 'new-trade-refused');
  await page.reload();
  const drawer = await openAlerts(page);
  await drawer.getByText('No active alerts.').waitFor();
  assert.equal(await drawer.getByText('Order refused by risk check').count(), 0);
  await page.keyboard.press('Escape');

  // Orders: modify the open limit, then cancel it after confirming.
  await page.goto('/trading/orders');
  const open = page.getByTestId('order-row').filter({ hasText: 'open' }).filter({ hasText: 'BUY' });
  await open.getByText('$1,000.00').waitFor();
  await open.getByRole('button', { name: 'Modify' }).click();
  const mod = page.getByRole('dialog');
  await mod.getByLabel('New Price').fill('1100');
  await mod.getByRole('button', { name: 'Modify Order' }).click();
  await mod.waitFor({ state: 'detached' });
  await open.getByText('$1,100.00').waitFor();
  await shot(page, 'orders');
  await open.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Cancel Order' }).getByText('Are you sure you want to cancel this order?').waitFor();
  await confirmIn(page, 'Cancel Order', 'Cancel order');
  await page.getByTestId('order-row').filter({ hasText: 'cancelled' }).waitFor();
  await page.getByLabel('Status filter').selectOption('pending');
  await page.getByText('No orders found').waitFor();

  // History lists fills: the market BUY's one fill at its price, not the
  // cancelled limit; export it as CSV.
  await page.goto('/trading/history');
  await page.getByTestId('trade-count').getByText('1 of 1 trades').waitFor();
  await page.getByTestId('trade-row').filter({ hasText: 'executed' }).getByText('Manual').waitFor();
  assert.equal(await page.getByTestId('trade-row').filter({ hasText: 'SELL' }).count(), 0);
  await page.getByTestId('trade-row').filter({ hasText: 'Market' }).filter({ hasText: '$' }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  assert.match(download.suggestedFilename(), /^trade-history-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  // RFC 4180: every record ends in CRLF, no bare line feed.
  assert.ok(csv.endsWith('\r\n') && !/[^\r]\n/.test(csv), 'records end in CRLF');
  assert.equal(csv.split('\r\n')[0], 'Date,Symbol,Side,Quantity,Price,Total,Fee,Status,Strategy,Order Type,Order ID,Realized P&L');
  assert.equal(csv.trim().split('\r\n').length, 2);
  await page.getByLabel('Side').selectOption('SELL');
  await page.getByText('No trades found matching your criteria').waitFor();
  await page.getByLabel('Side').selectOption('');
  await page.getByTestId('trade-row').first().getByRole('button', { name: 'View' }).click();
  await page.getByRole('dialog', { name: 'Trade Details' }).waitFor();
  await shot(page, 'trade-details');
  await page.keyboard.press('Escape');

  // Portfolio overview from real fills.
  await page.goto('/trading/portfolio');
  await page.getByText('P&L Breakdown').waitFor();
  await page.getByTestId('risk-level').waitFor();
  await shot(page, 'portfolio');

  // A stop-loss under the market protects the position; it rests as an open order.
  await page.goto('/trading/trade');
  await page.getByRole('button', { name: 'Show Advanced' }).click();
  await page.getByLabel('Order Type').selectOption('stop_loss');
  await page.getByRole('button', { name: 'SELL' }).click();
  await page.getByLabel('Quantity').fill('0.005');
  await page.getByLabel('Stop Price').fill('20000');
  await placeConfirmed(page, page, 'SELL');
  await page.getByRole('status').getByText('(open)').waitFor();
  await page.goto('/trading/orders');
  await page.getByTestId('order-row').filter({ hasText: 'Stop-Loss' }).filter({ hasText: 'open' }).waitFor();

  // Close the whole position with a market SELL: the hand-placed stop holds 0.005, so closing 0.01
  // is refused, and the refusal names the order that holds it...
  await page.goto('/trading/positions');
  await page.getByRole('row', { name: /BTC-USD/ }).getByRole('button', { name: 'Close' }).click();
  // More than is held is refused under the field, before anything is sent.
  await page.getByRole('dialog').getByLabel('Quantity to close').fill('0.02');
  await page.getByRole('dialog').getByRole('button', { name: 'Close Position' }).click();
  await page.getByRole('dialog').getByText('Invalid quantity').waitFor();
  await page.getByRole('dialog').getByLabel('Quantity to close').fill('0.01');
  await page.getByRole('dialog').getByRole('button', { name: 'Close Position' }).click();
  await page.getByRole('dialog').getByText(/0.005 BTC is on hold for your open stop_loss SELL order/).waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // The emergency stop cancels resting orders that add exposure (a BUY limit) and leaves the
  // protective stop-loss armed; selling to reduce the position still works while stopped.
  await page.goto('/trading/trade');
  await page.getByRole('button', { name: 'Show Advanced' }).click();
  await page.getByLabel('Order Type').selectOption('limit');
  await page.getByLabel('Quantity').fill('0.01');
  await page.getByLabel('Limit Price').fill('1000');
  await placeConfirmed(page, page, 'BUY');
  await page.getByRole('status').getByText('(open)').waitFor();
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await page.getByRole('dialog', { name: 'Emergency Stop' }).getByText(STOP_CONFIRM).waitFor(); // the text of what the server does
  await confirmIn(page, 'Emergency Stop', 'Stop trading');
  await page.getByText('Emergency Stop Active', { exact: true }).waitFor();
  await page.goto('/trading/orders');
  await page.getByTestId('order-row').filter({ hasText: 'Limit' }).filter({ hasText: '$1,000.00' }).filter({ hasText: 'cancelled' }).waitFor();
  await page.getByTestId('order-row').filter({ hasText: 'Stop-Loss' }).filter({ hasText: 'open' }).waitFor();
  await page.goto('/trading/positions');
  await page.getByRole('row', { name: /BTC-USD/ }).getByRole('button', { name: 'Close' }).click();
  await page.getByRole('dialog').getByLabel('Quantity to close').fill('0.005');
  await page.getByRole('dialog').getByRole('button', { name: 'Close Position' }).click();
  await page.getByRole('row', { name: /BTC-USD/ }).getByText('+0.005').waitFor();

  // Resume, then cancel the stop-loss so the rest of the position can be sold.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Resume Trading' }).click();
  await page.getByText('Emergency Stop Active', { exact: true }).waitFor({ state: 'detached' });
  await page.goto('/trading/orders');
  await page.getByTestId('order-row').filter({ hasText: 'Stop-Loss' }).filter({ hasText: 'open' }).getByRole('button', { name: 'Cancel' }).click();
  await confirmIn(page, 'Cancel Order', 'Cancel order');
  await page.getByTestId('order-row').filter({ hasText: 'Stop-Loss' }).filter({ hasText: 'cancelled' }).waitFor();
  assert.equal(await page.getByTestId('order-row').filter({ hasText: /\bopen\b/ }).count(), 0, 'no order left open');

  // Close the rest of the position with a market SELL.
  await page.goto('/trading/positions');
  await page.getByRole('row', { name: /BTC-USD/ }).getByRole('button', { name: 'Close' }).click();
  const close = page.getByRole('dialog');
  assert.equal(await close.getByLabel('Quantity to close').inputValue(), '0.005');
  await close.getByRole('button', { name: 'Close Position' }).click();
  await page.getByText('No active positions').waitFor();

  // The red Stop button halts trading; an operator can resume from the dashboard.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await confirmIn(page, 'Emergency Stop', 'Stop trading');
  await page.getByText('Emergency Stop Active', { exact: true }).waitFor();
  await page.getByTestId('health-badge').waitFor();
  await shot(page, 'dashboard-emergency-stop');
  await page.getByRole('button', { name: 'Resume Trading' }).click();
  await page.getByText('Emergency Stop Active', { exact: true }).waitFor({ state: 'detached' });

  assert.deepEqual(nativeDialogs, [], 'no native browser dialog');
  assert.deepEqual(external, [], 'the app must not contact any other host');
  assert.deepEqual(consoleErrors.filter((e) => !e.includes('status of 4')), [], 'no console errors');
  await context.close();
});
