// An operator connects Kestrel to Coinbase (the fake exchange, reached through
// the KESTREL_COINBASE_* URLs) in Settings: the connection test reads the
// accounts, saving switches the app to Coinbase's prices and orders, a market
// buy's fill arrives over the user channel into Positions, and a limit order
// rests at Coinbase, is modified and cancelled from the Orders screen.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { confirmIn, placeConfirmed, register } from '../lib/flows.mjs';
import { startServer } from '../lib/server.mjs';
import { startCoinbaseFake } from '../lib/coinbasefake.mjs';

let fake;
let server;
let browser;

before(async () => {
  fake = await startCoinbaseFake();
  server = await startServer(fake.env);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
});

test('connect Coinbase in Settings, trade on it, see fills and orders', async () => {
  const { page, external } = await newPage(browser, server.url);
  // Confirmations are the app's own dialogs; a native one would be a regression.
  const nativeDialogs = [];
  page.on('dialog', (d) => {
    nativeDialogs.push(d.message());
    void d.dismiss();
  });
  await register(page, 'Olga Operator', 'olga@example.com');

  await page.goto('/settings');
  await page.getByText('Not saved yet (defaults)').waitFor();
  await page.getByRole('tab', { name: 'API' }).click();
  await page.getByLabel('Exchange provider').selectOption('coinbase');
  await page.getByTestId('coinbase-notes').getByText('Coinbase has no stop-market order').waitFor();
  await page.getByLabel('Sandbox mode').uncheck();
  await page.getByLabel('API key', { exact: true }).fill(fake.key_name);
  await page.getByLabel('API secret').fill(fake.secret); // a one-line field: the PEM arrives without line breaks
  await page.getByRole('button', { name: 'Test Connection' }).first().click();
  await page.getByRole('status').getByText('Connected', { exact: true }).waitFor();
  await page.getByText(/Coinbase \(production, http:\/\/127\.0\.0\.1:\d+\) answered with 1 account/).waitFor();
  await shot(page, 'coinbase-settings-connected');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await confirmIn(page, 'Switch Exchange', 'Save and switch');
  await page.getByText(/Last saved:/).waitFor();

  // Prices now come from Coinbase, and the dashboard says so.
  await page.goto('/dashboard');
  await page.getByTestId('market-source').getByText('(Coinbase live market data)').waitFor({ timeout: 20_000 });
  await page.getByTestId('price-card-price').filter({ hasText: '$' }).waitFor();
  await shot(page, 'coinbase-dashboard');

  // A market buy fills at Coinbase; the fill reaches Positions.
  await page.goto('/trading/trade');
  await page.getByTestId('tf-current-price').filter({ hasText: '$' }).waitFor();
  await page.getByLabel('Quantity').fill('0.01');
  // Coinbase's fee depends on the account's tier: the form says it does not know it rather than guess.
  await page.getByTestId('tf-fee').getByText('Not published by the exchange').waitFor();
  await placeConfirmed(page, page, 'BUY');
  await page.getByRole('status').getByText('(filled)').waitFor();
  await page.goto('/trading/positions');
  await page.getByRole('row', { name: /BTC-USD/ }).getByText('+0.01').waitFor();

  // The stop-loss form explains what Coinbase receives.
  await page.goto('/trading/trade');
  await page.getByRole('button', { name: 'Show Advanced' }).click();
  await page.getByLabel('Order Type').selectOption('stop_loss');
  await page.getByTestId('coinbase-stop-note').waitFor();

  // A limit far below the market rests at Coinbase; modify it, then cancel it.
  await page.getByLabel('Order Type').selectOption('limit');
  await page.getByRole('button', { name: 'BUY', exact: true }).click();
  await page.getByLabel('Quantity').fill('0.01');
  await page.getByLabel('Limit Price').fill('1000');
  await placeConfirmed(page, page, 'BUY');
  await page.getByRole('status').getByText('(open)').waitFor();
  await page.goto('/trading/orders');
  const open = page.getByTestId('order-row').filter({ hasText: 'Limit' }).filter({ hasText: 'open' });
  await open.getByText('$1,000.00').waitFor();
  await open.getByRole('button', { name: 'Modify' }).click();
  const mod = page.getByRole('dialog');
  await mod.getByLabel('New Price').fill('1100');
  await mod.getByRole('button', { name: 'Modify Order' }).click();
  await mod.waitFor({ state: 'detached' });
  await open.getByText('$1,100.00').waitFor();
  await shot(page, 'coinbase-orders');
  await open.getByRole('button', { name: 'Cancel' }).click();
  await confirmIn(page, 'Cancel Order', 'Cancel order');
  await page.getByTestId('order-row').filter({ hasText: 'Limit' }).filter({ hasText: 'cancelled' }).waitFor();

  // A resting limit buy filled by a market move at Coinbase arrives over the user channel.
  await fake.setPrice('BTC-USD', '60000');
  await page.goto('/trading/trade');
  await page.getByRole('button', { name: 'Show Advanced' }).click();
  await page.getByLabel('Order Type').selectOption('limit');
  await page.getByLabel('Quantity').fill('0.01');
  await page.getByLabel('Limit Price').fill('59000');
  await placeConfirmed(page, page, 'BUY');
  await page.getByRole('status').getByText('(open)').waitFor();
  await fake.setPrice('BTC-USD', '58900');
  await page.getByLabel('Trade notifications').getByText('Filled: BUY 0.01 BTC-USD').last().waitFor({ timeout: 15_000 });
  await page.goto('/trading/positions');
  await page.getByRole('row', { name: /BTC-USD/ }).getByText('+0.02').waitFor();
  await shot(page, 'coinbase-positions');
  assert.deepEqual(nativeDialogs, [], 'no native browser dialog');
  assert.deepEqual(external, [], 'no request left the machine');
});
