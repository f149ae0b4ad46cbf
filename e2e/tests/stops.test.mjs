// Stops a trader can manage (issue 27): the protective stop of a BUY is
// moved and resized in the Orders screen's Modify dialog (in place, no
// window without a stop), Positions show it with the quantity it covers,
// and a partial close that shrinks it leaves a notice saying so and why.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';
import { placeConfirmed, register } from '../lib/flows.mjs';

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

test('modify the protective stop in Orders; Positions show it and why it shrank', async () => {
  const { page, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Sam Stops', 'sam@example.com');

  await page.getByRole('button', { name: 'New Trade' }).click();
  const trade = page.getByRole('dialog', { name: 'Quick Trade' });
  await trade.getByTestId('tf-current-price').filter({ hasText: '$' }).waitFor();
  await trade.getByLabel('Quantity').fill('0.01');
  await placeConfirmed(page, trade, 'BUY');
  await trade.waitFor({ state: 'detached' });

  await page.goto('/trading/orders');
  const stop = page.getByTestId('order-row').filter({ hasText: 'Protective' }).filter({ hasText: 'Stop-Loss' }).filter({ hasText: 'open' });
  await stop.waitFor();
  const rowsBefore = await page.getByTestId('order-row').count();
  await stop.getByRole('button', { name: 'Modify' }).click();
  const dialog = page.getByRole('dialog', { name: /^Modify Stop/ });
  const market = Number((await dialog.getByTestId('modify-market').filter({ hasText: '$' }).innerText()).replace(/[^0-9.]/g, ''));
  assert.ok(market > 0, 'the dialog shows the market price');

  // Above the market: refused in the dialog, nothing sent.
  await dialog.getByLabel('New Stop Price').fill(String(Math.ceil(market * 1.05)));
  await dialog.getByRole('button', { name: 'Modify Stop' }).click();
  await dialog.getByText(/Stop price must be below the current price/).waitFor();
  await shot(page, 'orders-modify-stop-refused');

  const newStop = Math.floor(market * 0.95);
  await dialog.getByLabel('New Stop Price').fill(String(newStop));
  await dialog.getByLabel('New Quantity').fill('0.008');
  await dialog.getByRole('button', { name: 'Modify Stop' }).click();
  await dialog.waitFor({ state: 'detached' });
  const moved = page.getByTestId('order-row').filter({ hasText: 'Protective' }).filter({ hasText: newStop.toLocaleString('en-US') });
  await moved.filter({ hasText: '0.008' }).filter({ hasText: 'open' }).waitFor();
  assert.equal(await page.getByTestId('order-row').count(), rowsBefore, 'modified in place: no new order, none cancelled');
  await shot(page, 'orders-stop-modified');

  // Positions: the stop with the quantity it covers, and the uncovered rest.
  await page.goto('/trading/positions');
  const cell = page.getByTestId('position-protection');
  await cell.getByText(newStop.toLocaleString('en-US'), { exact: false }).waitFor();
  await cell.getByText(/0\.002 without a stop/).waitFor();

  // A partial close takes 0.005 from the stop: the notice says so and why.
  await page.getByRole('row', { name: /BTC-USD/ }).getByRole('button', { name: 'Close' }).click();
  const close = page.getByRole('dialog', { name: /Close Position/ });
  await close.getByLabel('Quantity to close').fill('0.007');
  await close.getByRole('button', { name: 'Close Position' }).click();
  await close.waitFor({ state: 'detached' });
  const notice = page.getByTestId('protection-reduced');
  await notice.getByText(/reduced from 0\.008 to 0\.003 because a Close Position SELL of 0\.007 BTC was placed/).waitFor();
  await shot(page, 'positions-protection-reduced');

  // Phone width: the positions table scrolls inside its card, the page does not.
  await page.setViewportSize({ width: 390, height: 844 });
  await notice.waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page overflows by ${overflow}px at 390 px`);
  await shot(page, 'positions-protection-390');
  assert.deepEqual(consoleErrors, []);
});

test('place a trailing stop from the order form; Orders show its trail and current stop', async (t) => {
  // A server of its own: the first account on a server is its operator, and registration after it may be closed.
  const own = await startServer();
  t.after(() => own.stop());
  const { page, consoleErrors } = await newPage(browser, own.url);
  await register(page, 'Tia Trail', 'tia@example.com');

  await page.getByRole('button', { name: 'New Trade' }).click();
  const trade = page.getByRole('dialog', { name: 'Quick Trade' });
  await trade.getByTestId('tf-current-price').filter({ hasText: '$' }).waitFor();
  await trade.getByLabel('Quantity').fill('0.01');
  await placeConfirmed(page, trade, 'BUY');
  await trade.waitFor({ state: 'detached' });

  await page.goto('/trading/trade');
  const form = page.getByRole('form', { name: 'Trading form' });
  await form.getByTestId('tf-current-price').filter({ hasText: '$' }).waitFor();
  await form.getByRole('button', { name: 'SELL', exact: true }).click();
  await form.getByRole('button', { name: 'Show Advanced' }).click();
  await form.getByLabel('Order Type').selectOption('trailing_stop');
  await form.getByLabel('Quantity').fill('0.004');
  await form.getByLabel('Trail', { exact: true }).fill('3');
  await shot(page, 'trade-trailing-stop-form');
  await placeConfirmed(page, form, 'SELL');
  await form.getByRole('status').getByText(/placed: SELL [0-9.]+ BTC-USD \(open\)/).waitFor();

  await page.goto('/trading/orders');
  const row = page.getByTestId('order-row').filter({ hasText: 'Trailing Stop' }).filter({ hasText: 'open' });
  await row.getByTestId('trail-note').getByText(/trails 3% from \$/).waitFor();
  await shot(page, 'orders-trailing-stop');
  assert.deepEqual(consoleErrors, []);
});
