// The backtest report as a quant reads it: overrides typed into fields
// built from the strategy's own parameters (a key it does not have is
// refused, nothing runs), past runs labelled with their return and their
// overrides, two runs' equity curves overlaid on one chart, a run the
// drawdown limit halted saying so first, and candle counts that add up.
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

const run = async (page) => {
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await page.getByText('Backtest completed successfully').waitFor({ timeout: 60_000 });
};

test('overrides from the parameters, labelled history, overlaid curves and the halt callout', async () => {
  const { page, external, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Quinn Quant', 'quinn@example.com');
  // A 5% drawdown limit, which the technical strategy reaches in the summer of 2025 and never recovers from.
  const login = await api(server.url, 'POST', '/api/auth/login', { body: { email: 'quinn@example.com', password: 'correct horse battery' } });
  const set = await api(server.url, 'PUT', '/api/settings', { token: login.data.token, body: { trading: { riskManagement: { maxDrawdown: 0.05 } } } });
  assert.equal(set.status, 200, JSON.stringify(set.error));

  await page.goto('/strategy/backtest');
  await page.getByRole('heading', { name: 'Strategy Backtesting' }).waitFor();
  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  await page.getByLabel('Start Date').fill('2025-06-01');
  await page.getByLabel('End Date').fill('2025-09-01');
  await run(page);

  // Halted: said before the figures, with the days it left untraded.
  const halted = page.getByTestId('bt-halted');
  await halted.waitFor();
  assert.match(await halted.innerText(), /^Trading halted: Maximum drawdown reached \(limit 5%\) on 0[6-8]\/\d\d\/2025: \d+ of 92 days untraded\./);
  // Candles that add up: warm-up + the period's = read.
  const data = await page.getByTestId('bt-data').innerText();
  const m = /\(([\d,]+) candles read: ([\d,]+) to warm up \+ ([\d,]+) in the period\)/.exec(data);
  assert.ok(m, data);
  const num = (s) => Number(s.replace(/,/g, ''));
  assert.equal(num(m[2]) + num(m[3]), num(m[1]));
  assert.equal(num(m[3]), 92 * 24);
  // The equity chart draws (photographed: it opens on the whole run).
  await page.getByTestId('equity-chart').locator('canvas').first().waitFor();
  await page.waitForTimeout(500);
  await shot(page, 'backtest-halted');

  // Overrides through fields built from the strategy's parameters.
  await page.getByRole('button', { name: 'Parameter overrides (optional)' }).click();
  const oversold = page.getByLabel('RSI oversold');
  assert.equal(await oversold.getAttribute('placeholder'), '30');
  await oversold.fill('40');
  await page.getByLabel('RSI overbought').fill('60');
  assert.deepEqual(JSON.parse(await page.getByLabel('Parameter overrides (JSON)').inputValue()), { indicators: { rsi_oversold: 40, rsi_overbought: 60 } });

  // A key the strategy does not have is refused by the server, and nothing runs.
  const json = page.getByLabel('Parameter overrides (JSON)');
  await json.fill('{"indicators": {"rsi_perod": 10}}');
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await page.locator('#bt-params-error').waitFor();
  assert.match(await page.locator('#bt-params-error').innerText(), /rsi_perod/);
  assert.equal(await page.getByTestId('bt-history-row').count(), 1);

  await json.fill('');
  await oversold.fill('40');
  await page.getByLabel('RSI overbought').fill('60');
  await run(page);
  const rows = page.getByTestId('bt-history-row');
  await rows.nth(1).waitFor();
  // Each past run: its return and what it overrode.
  assert.match(await rows.nth(0).getByTestId('bt-history-return').innerText(), /^[+-]?\d+\.\d\d%$/);
  assert.equal(await rows.nth(0).getByTestId('bt-history-overrides').innerText(), 'Overrides: rsi_oversold 40, rsi_overbought 60');
  assert.equal(await rows.nth(1).getByTestId('bt-history-overrides').innerText(), 'Saved settings');

  // Compare: both equity curves on one chart, above the metrics.
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Compare' }).click();
  await page.getByTestId('compare-equity-chart').locator('canvas').first().waitFor();
  await page.getByRole('table', { name: 'Run comparison' }).waitFor();
  assert.match(await page.getByText(/^Return since each run's start/).innerText(), /Run A · \w{8}.*Run B · \w{8}/s);
  await page.waitForTimeout(500);
  await shot(page, 'backtest-compare-overlay');

  // A phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
  await shot(page, 'backtest-compare-overlay-390');
  await page.getByRole('button', { name: 'Close' }).click();
  await rows.nth(1).getByRole('button').click();
  await halted.waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
  await shot(page, 'backtest-halted-390');

  assert.deepEqual(external, []);
  // The browser logs the one refusal asked for (400); nothing else went wrong.
  assert.deepEqual(consoleErrors, ['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
});
