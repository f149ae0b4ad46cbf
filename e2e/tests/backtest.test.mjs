// Backtesting from the screen: the spec's validation messages, a run of the
// technical strategy over two past months with its report (metrics, the
// assumptions, the equity curve, the price chart with fills and the trade
// list), a second run with parameter overrides, the history and two runs
// compared side by side. Runs are jobs: a live model that answers slowly
// shows the progress bar, is cancelled, and the answers it paid for replay.
// Each state is photographed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { api, startServer } from '../lib/server.mjs';
import { startAIFake } from '../lib/aifake.mjs';
import { register } from '../lib/flows.mjs';

let server;
let browser;
let model;

before(async () => {
  server = await startServer();
  browser = await launch();
  model = await startAIFake('200ms');
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await model?.stop();
});


test('a backtest runs from the screen and shows its report, history and comparison', async () => {
  const { page, external, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Bea Backtester', 'bea@example.com');

  await page.goto('/strategy/backtest');
  await page.getByRole('heading', { name: 'Strategy Backtesting' }).waitFor();
  await page.getByText('No Backtest Results').waitFor();
  await page.getByText('No backtests yet.').waitFor();
  // The spec's defaults: BTC-USD, capital 10000 in steps of 1000 from 1000, the last three months.
  assert.equal(await page.getByLabel('Symbol').inputValue(), 'BTC-USD');
  const capital = page.getByLabel('Initial Capital (USD)');
  assert.equal(await capital.inputValue(), '10000');
  assert.equal(await capital.getAttribute('min'), '1000');
  assert.equal(await capital.getAttribute('step'), '1000');
  // The last three months of stored market data: they end with the newest candle (2026-05-08), not today.
  await page.waitForFunction(() => document.querySelector('#bt-end')?.value === '2026-05-08');
  const start = new Date(await page.getByLabel('Start Date').inputValue());
  const end = new Date(await page.getByLabel('End Date').inputValue());
  const days = (end - start) / 86_400_000;
  assert.ok(days >= 89 && days <= 92, `default period ${days} days`);

  // Validation in the browser, with the spec's words.
  await page.getByLabel('Start Date').fill('2026-03-01');
  await page.getByLabel('End Date').fill('2026-01-01');
  await capital.fill('0');
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await page.getByText('Please select a strategy').waitFor();
  await page.getByText('Start date must be before end date').waitFor();
  await page.getByText('Initial capital must be greater than 0').waitFor();
  await page.getByLabel('End Date').fill('2026-03-05');
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await page.getByText('Backtest period must be at least 7 days').waitFor();
  await shot(page, 'backtest-invalid');

  // The technical strategy over January and February 2026.
  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  await page.getByLabel('Start Date').fill('2026-01-01');
  await page.getByLabel('End Date').fill('2026-03-01');
  await capital.fill('10000');
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await page.getByText('Backtest completed successfully').waitFor({ timeout: 30_000 });
  const report = page.getByTestId('bt-report');
  await report.waitFor();
  for (const id of ['bt-total-return', 'bt-win-rate', 'bt-max-drawdown', 'bt-final-value']) {
    assert.match(await page.getByTestId(id).innerText(), /[\d.]+%|\$[\d,.]+/, id);
  }
  const metrics = page.getByTestId('bt-metrics');
  for (const label of ['Sharpe Ratio', 'Sortino Ratio', 'Calmar Ratio', 'CAGR', 'Profit Factor', 'Win/Loss Ratio', 'Expectancy', 'Average Win', 'Average Loss', 'Exposure Time', 'Fees Paid', 'Buy & Hold Return', 'Initial Equity', 'Final Equity']) {
    await metrics.getByText(label, { exact: true }).waitFor();
  }
  assert.match(await page.getByRole('note', { name: 'Assumptions' }).innerText(), /Taker fee 0\.60%.*timeframe 1 hour.*engine v2/s);
  assert.match(await page.getByTestId('bt-data').innerText(), /^Data: coinbase \(shipped\), real market dates 12\/\d\d\/2025 \d\d:\d\d UTC to 03\/01\/2026 00:00 UTC/);
  await page.getByTestId('equity-chart').locator('canvas').first().waitFor();
  await page.getByTestId('fills-chart').locator('canvas').first().waitFor();
  // Both charts open on the whole run (January and February), and say so.
  for (const id of ['equity-span', 'fills-span']) {
    const span = page.getByTestId(id);
    await span.waitFor();
    await page.waitForFunction((t) => document.querySelector(`[data-testid="${t}"]`)?.getAttribute('data-whole') === 'true', id);
    assert.match(await span.innerText(), /^Showing 01\/01\/2026, .* to (02\/28|03\/01)\/2026, .*: the whole run$/, id);
  }
  const trades = await page.getByTestId('bt-trade-row').count();
  assert.ok(trades > 0, 'the period has trades');
  await page.getByText(/Trades \(\d+\)/).waitFor();
  await page.getByText('Signals Not Executed').waitFor();
  await page.getByTestId('bt-history-row').first().getByText('technical_strategy').waitFor();
  await page.waitForTimeout(500); // let the charts paint
  await shot(page, 'backtest-report');

  // A second run with looser RSI levels for this run only.
  await page.getByRole('button', { name: 'Parameter overrides (optional)' }).click();
  await page.getByLabel('Parameter overrides (JSON)').fill('{"indicators": {"rsi_oversold": 40, "rsi_overbought": 60}}');
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await page.getByText('Backtest completed successfully').waitFor({ timeout: 30_000 });
  await page.getByTestId('bt-history-row').nth(1).waitFor();
  assert.equal(await page.getByTestId('bt-history-row').count(), 2);

  // Compare the two runs.
  const rows = page.getByTestId('bt-history-row');
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Compare' }).click();
  const table = page.getByRole('table', { name: 'Run comparison' });
  await table.waitFor();
  await table.getByText('Total Return').waitFor();
  assert.equal(await table.locator('tbody tr').count() >= 10, true);
  await shot(page, 'backtest-compare');

  // Opening the older run from the history shows its report.
  await rows.nth(1).getByRole('button').click();
  await report.waitFor();
  await page.getByText(/Trades \(\d+\)/).waitFor();
  assert.equal(await page.getByTestId('bt-trade-row').count(), trades);

  // An AI strategy: recorded decisions (none recorded on a new platform, so
  // every prompt is a HOLD and says so), then the live model's estimate.
  await page.getByLabel('Strategy', { exact: true }).selectOption('ai_strategy');
  await page.getByLabel('Parameter overrides (JSON)').fill('');
  await page.getByLabel('Start Date').fill('2026-02-01');
  await page.getByLabel('End Date').fill('2026-02-15');
  const mode = page.getByLabel('AI decisions', { exact: true });
  assert.equal(await mode.inputValue(), 'builtin');
  await mode.selectOption('recorded');
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await page.getByText('Backtest completed successfully').waitFor({ timeout: 30_000 });
  const note = page.getByRole('note', { name: 'AI run' });
  assert.match(await note.innerText(), /AI decisions: Recorded decisions\s+(\d+) of \1 prompts had no recorded decision/);
  assert.match(await page.getByRole('note', { name: 'Assumptions' }).innerText(), /AI decisions: Recorded decisions/);
  await shot(page, 'backtest-ai-recorded');

  await mode.selectOption('live');
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  const estimate = page.getByTestId('bt-live-estimate');
  await estimate.waitFor({ timeout: 30_000 });
  // 14 days of hourly candles, less the last: one call per evaluation.
  assert.equal(await page.getByTestId('bt-model-calls').innerText(), '335');
  await estimate.getByText('Training cutoff: none').waitFor();
  await shot(page, 'backtest-ai-live-estimate');
  await estimate.getByRole('button', { name: 'Run with 335 model calls' }).click();
  await page.getByText('Backtest completed successfully').waitFor({ timeout: 30_000 });
  assert.match(await note.innerText(), /AI decisions: Live model\s+335 model calls to builtin/);

  // A model that takes 200 ms per answer: the run is a job with a progress
  // bar; Cancel stops it and keeps the answers paid for, which replay.
  const login = await api(server.url, 'POST', '/api/auth/login', { body: { email: 'bea@example.com', password: 'correct horse battery' } });
  const set = await api(server.url, 'PUT', '/api/settings', { token: login.data.token, body: { api: { ai: { provider: 'openai', baseUrl: model.url, model: 'fake-model', timeout: 10000 } } } });
  assert.equal(set.status, 200, JSON.stringify(set.error));
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await estimate.getByRole('button', { name: 'Run with 335 model calls' }).click();
  const bar = page.getByRole('progressbar', { name: 'Backtest progress' });
  await bar.waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => Number(document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow')) >= 3, null, { timeout: 60_000 });
  await shot(page, 'backtest-job-progress');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.getByText(/^Backtest cancelled: Cancelled by bea@example\.com$/).waitFor({ timeout: 30_000 });
  await page.getByTestId('bt-history-status').filter({ hasText: 'cancelled' }).first().waitFor();
  await shot(page, 'backtest-job-cancelled');

  await mode.selectOption('recorded');
  await page.getByRole('button', { name: 'Run Backtest' }).click();
  await page.getByText('Backtest completed successfully').waitFor({ timeout: 30_000 });
  const replayed = /(\d+) of 335 prompts had no recorded decision \(counted as HOLD\); (\d+) replayed from openai\/fake-model x(\d+)/.exec(await note.innerText());
  assert.ok(replayed, await note.innerText());
  assert.ok(Number(replayed[2]) >= 10 && Number(replayed[2]) < 335 && Number(replayed[1]) + Number(replayed[2]) === 335, replayed[0]);

  assert.deepEqual(external, []);
  assert.deepEqual(consoleErrors, []);
});
