// The backtest and research forms' default period is one the server
// accepts: the coverage of the candle store is held back for two seconds
// (a slow answer), the strategy is chosen and Run pressed at once. Run waits
// for the coverage, then the default period (the last three months of the
// stored data, not of the calendar) is sent and accepted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';
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

/** Holds every answer about the store's coverage back by ms. */
async function slowCoverage(page, ms) {
  await page.route('**/api/market-data/coverage', async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
}

test('Run pressed at once on the Backtesting and Research screens sends the default period, and the run is accepted', async () => {
  const { page, external, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Quinn Quick', 'quinn@example.com');
  await slowCoverage(page, 2000);
  await page.goto('/strategy/backtest');
  await page.getByRole('option', { name: /^technical_strategy \(/ }).waitFor({ state: 'attached' });
  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  const run = page.getByRole('button', { name: 'Run Backtest' });
  // The coverage has not answered: no period yet, and Run says it waits.
  assert.equal(await run.isDisabled(), true);
  assert.equal(await page.getByLabel('End Date').inputValue(), '');
  assert.equal(await page.getByTestId('period-status').innerText(), 'Reading which dates the market data covers…');
  await shot(page, 'backtest-period-waiting');
  const posted = page.waitForResponse((r) => r.url().endsWith('/api/backtests') && r.request().method() === 'POST');
  await run.click(); // waits for Run to be enabled
  const res = await posted;
  const body = res.request().postDataJSON();
  assert.equal(res.status(), 202, await res.text());
  // The last three months of the stored data (its newest whole day is 2026-05-07).
  assert.deepEqual([body.start_date, body.end_date], ['2026-02-08', '2026-05-08']);
  await page.getByText('Backtest completed successfully').waitFor({ timeout: 60_000 });
  assert.match(await page.getByTestId('period-status').innerText(), /within the data \(2024-04-\d\d to 2026-05-07\)/);
  await shot(page, 'backtest-period-accepted');

  // Research, loaded afresh (the coverage asked again, as slowly): Run Sweep pressed at once.
  await page.goto('/strategy/research');
  await page.getByRole('option', { name: 'technical_strategy' }).waitFor({ state: 'attached' });
  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  await page.getByLabel('Add a parameter').selectOption('indicators.rsi_period');
  await page.getByLabel('Values of indicators.rsi_period').fill('7, 21');
  const sweep = page.getByRole('button', { name: 'Run Sweep' });
  const queued = page.waitForResponse((r) => r.url().endsWith('/api/sweeps') && r.request().method() === 'POST');
  await sweep.click();
  const answer = await queued;
  assert.equal(answer.status(), 202, await answer.text());
  assert.deepEqual(((a) => [a.start_date, a.end_date])(answer.request().postDataJSON()), ['2026-02-08', '2026-05-08']);
  await page.getByTestId('sweep-done').waitFor({ timeout: 120_000 });
  assert.deepEqual(external, []);
  assert.deepEqual(consoleErrors.filter((e) => !/404|Failed to load resource/.test(e)), []);
});
