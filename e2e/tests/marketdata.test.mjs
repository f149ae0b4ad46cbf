// The market-data manager and the order book against the fake Coinbase
// (bin/coinbasefake: 90 days of history, a level2 book): on the replay the
// order book is absent with its reason; with the market source on Coinbase
// an operator backfills 90 days of hourly candles from Settings -> Market
// data, watches its progress bar reach 100%, and finds them in the coverage
// table with the source "coinbase"; the New Trade screen shows Coinbase's
// book as a ladder and a depth chart.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { confirmIn, register } from '../lib/flows.mjs';
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

test('backfill from Coinbase fills the coverage; the order book follows level2', async () => {
  const { page, external } = await newPage(browser, server.url);
  await register(page, 'Olga Operator', 'olga@example.com');

  // The replay has no book: the view says why.
  await page.goto('/trading/trade');
  await page.getByTestId('ob-absent').getByText(/No order book on the replay/).waitFor();

  // Prices from Coinbase (paper venue): the public market, no key.
  await page.goto('/settings');
  await page.getByText('Not saved yet (defaults)').waitFor();
  await page.getByLabel('Market data source').selectOption('coinbase');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await confirmIn(page, 'Switch Exchange', 'Save and switch'); // the market switch asks first
  await page.getByText(/Last saved:/).waitFor();

  // Settings -> Market data: the shipped data's coverage, then a 90-day hourly backfill.
  await page.getByRole('tab', { name: 'Market data' }).click();
  const coverage = page.getByTestId('md-coverage');
  await coverage.getByRole('row', { name: /BTC-USD 15 minutes coinbase \(shipped\)/ }).waitFor();
  await page.getByTestId('md-backtests').getByText(/BTC-USD/).waitFor();
  await page.getByRole('button', { name: 'Start backfill' }).click();
  const bar = page.getByRole('progressbar', { name: 'Backfill BTC-USD ONE_HOUR progress' });
  await bar.waitFor();
  await shot(page, 'marketdata-backfill-running');
  await page.getByTestId('md-backfill-status').getByText('Completed').waitFor({ timeout: 60_000 });
  assert.equal(await bar.getAttribute('aria-valuenow'), '100');
  const row = coverage.getByRole('row', { name: /BTC-USD 1 hour coinbase / });
  await row.waitFor({ timeout: 10_000 });
  const candles = Number((await row.getByRole('cell').nth(5).textContent()).replace(/,/g, ''));
  assert.ok(candles >= 2150 && candles <= 2160, `hourly candles stored: ${candles}`);
  // What backtests can use now reaches the backfilled hours, from both sources.
  await page.getByTestId('md-backtests').getByText(/coinbase \(shipped\), coinbase/).waitFor();
  await shot(page, 'marketdata-coverage');

  // The order book on the live market: ladder and depth chart from level2.
  await page.goto('/trading/trade');
  const ladder = page.getByTestId('ob-ladder');
  await ladder.waitFor({ timeout: 20_000 });
  assert.equal(await ladder.getByRole('row').count(), 1 + 10 + 1 + 10); // header, asks, spread, bids
  await page.getByTestId('ob-depth').waitFor();
  await page.getByTestId('ob-spread').getByText(/Spread \$/).waitFor();
  await shot(page, 'marketdata-orderbook');
  assert.deepEqual(external, []);
});
