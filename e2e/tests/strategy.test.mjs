// Automated trading in the browser: with automation on and the replay sped
// up, the technical strategy (configured and enabled on its screen) records
// signals, places an order under its own name and opens a position; an
// invalid configuration shows the spec's message. Each strategy screen is
// photographed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { api, startServer } from '../lib/server.mjs';
import { register } from '../lib/flows.mjs';

let server;
let browser;

before(async () => {
  // 600 market seconds per wall second: a 15-minute candle closes every 1.5 s.
  server = await startServer({ KESTREL_REPLAY_SPEED: '600' });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});


const field = (page, label) => page.getByLabel(label, { exact: true });

test('the technical strategy trades on its own; bad settings show the spec message', async () => {
  const { page, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Olive Operator', 'olive@example.com');

  // Automation on (the first account is the operator).
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  const put = await api(server.url, 'PUT', '/api/settings', { token, body: { trading: { automation: { autoTrading: true } } } });
  assert.equal(put.success, true, JSON.stringify(put.error));

  await page.goto('/strategy/technical');
  await page.getByRole('heading', { name: 'Technical Analysis Strategy' }).waitFor();
  await page.getByText('Inactive').first().waitFor();

  // Short SMA not below long SMA: refused in the browser with the spec's message.
  await field(page, 'Short SMA Period').fill('30');
  await field(page, 'Long SMA Period').fill('20');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await page.locator('#f-indicators-sma_short-error').getByText('Short SMA period must be less than long SMA period').waitFor();
  await shot(page, 'strategy-technical-invalid');

  // The server says the same when asked directly.
  const bad = await api(server.url, 'PUT', '/api/strategy/config/technical_strategy', { token, body: { indicators: { sma_short: 30, sma_long: 20 } } });
  assert.equal(bad.error?.fields?.['indicators.sma_short'], 'Short SMA period must be less than long SMA period');

  // A setup that trades soon: three symbols, 15-minute candles (ONE_MINUTE candles
  // are rolled up from live ticks and too sparse at this replay speed), wide RSI levels.
  await field(page, 'Short SMA Period').fill('10');
  await field(page, 'Long SMA Period').fill('20');
  await field(page, 'Trading Symbols').fill(' btc-usd, ETH-USD, ,SOL-USD ');
  await page.getByLabel('Timeframe').selectOption('FIFTEEN_MINUTE');
  await field(page, 'Oversold Level').fill('40');
  await field(page, 'Overbought Level').fill('60');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await page.getByText('Technical analysis strategy configuration saved successfully').waitFor();
  assert.equal(await field(page, 'Trading Symbols').inputValue(), 'BTC-USD, ETH-USD, SOL-USD');
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await page.getByText('Technical analysis strategy enabled').waitFor();
  await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();
  await page.getByTestId('evaluation-row').first().waitFor({ timeout: 60_000 });
  await shot(page, 'strategy-technical');

  // Signals on the history screen, an executed one among them.
  await page.goto('/strategy/history');
  await page.getByRole('tab', { name: 'Strategy Signals' }).click();
  await page.getByTestId('evaluation-row').first().waitFor({ timeout: 60_000 });
  await page.getByLabel('Execution status filter').selectOption('true');
  const executed = page.getByTestId('evaluation-row').filter({ hasText: 'Executed (order #' });
  await executed.first().waitFor({ timeout: 60_000 });
  await shot(page, 'strategy-history-signals');
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await page.getByRole('tab', { name: 'Analytics' }).click();
  await page.getByTestId('history-analytics').waitFor();
  await shot(page, 'strategy-history-analytics');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Data' }).click();
  assert.match((await download).suggestedFilename(), /^strategy-history-\d{4}-\d{2}-\d{2}\.csv$/);

  // The order carries the strategy's name; the position is open.
  await page.goto('/trading/orders');
  await page.getByTestId('order-row').filter({ has: page.getByTestId('order-strategy').getByText('technical_strategy', { exact: true }) }).first().waitFor({ timeout: 30_000 });
  await shot(page, 'strategy-orders');
  await page.goto('/trading/positions');
  await page.getByRole('row', { name: /(BTC|ETH|SOL)-USD/ }).first().waitFor({ timeout: 30_000 });
  await shot(page, 'strategy-positions');

  // Management, performance and the AI screen.
  await page.goto('/strategy');
  await page.getByRole('heading', { name: 'Strategy Management' }).waitFor();
  await page.getByTestId('strategy-card').filter({ hasText: 'technical_strategy' }).getByRole('switch', { checked: true }).waitFor();
  await shot(page, 'strategy-management');
  await page.getByRole('tab', { name: 'Performance' }).click();
  await page.getByTestId('performance-row').first().waitFor();
  await page.getByRole('button', { name: 'Create Strategy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Strategy' });
  await dialog.getByLabel('Name').fill('fast_rsi');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.getByText('Strategy fast_rsi created').waitFor();
  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.getByTestId('strategy-card').filter({ hasText: 'fast_rsi' }).waitFor();

  await page.goto('/strategy/performance');
  await page.getByTestId('performance-row').filter({ hasText: 'technical_strategy' }).waitFor();
  await shot(page, 'strategy-performance');

  await page.goto('/strategy/ai');
  await page.getByRole('heading', { name: 'AI Strategy Configuration' }).waitFor();
  // The built-in analyst (the default provider) answers each symbol with a decision and its reasoning.
  await page.getByTestId('model-label').getByText('Built-in analyst (offline)').waitFor();
  await page.getByRole('button', { name: 'Test AI' }).click();
  await page.getByText('AI analysis test completed successfully').waitFor({ timeout: 30_000 });
  const result = page.getByTestId('test-ai-result').first();
  await result.getByText(/^(BUY|SELL|HOLD)$/).waitFor();
  await result.getByText('Built-in analyst (offline)').waitFor();
  // The prompt editor previews the active template from live data as it opens.
  await page.getByTestId('prompt-preview').getByText('Decide whether to BUY, SELL or HOLD BTC-USD now.').waitFor();
  await shot(page, 'strategy-ai');

  assert.deepEqual(consoleErrors, []);
});
