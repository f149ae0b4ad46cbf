// Versioned prompts in the browser: AI Configuration's editor checks a
// template as it is typed (an unknown field is shown with its line), renders
// it against live data, and "Save as new version" stores it as a strategy
// version; the prompt versions list it with a line diff against the shipped
// template, and "Backtest this prompt" starts a recorded-mode run of that
// version that opens on the Backtest screen. Desktop (1280 px) and a 390 px
// phone are photographed; the phone has no horizontal overflow.
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

test('edit, check, preview, save, diff and backtest a prompt', async () => {
  const { page, consoleErrors } = await newPage(browser, server.url, { width: 1280, height: 900 });
  await register(page, 'Olive Operator', 'olive@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));

  await page.goto('/strategy/ai');
  const area = page.getByLabel('Prompt template');
  await area.waitFor();
  // It starts from the shipped template, which renders against live data.
  assert.match(await area.inputValue(), /^\{\{define "system"/);
  await page.getByTestId('prompt-preview').getByText('Decide whether to BUY, SELL or HOLD BTC-USD now.').waitFor();

  // An unknown field: the error names its line; nothing can be saved.
  const text = (await area.inputValue()).replace('Risk limits:', 'Risk limits ({{.Nope}}):');
  await area.fill(text);
  const err = page.getByTestId('prompt-error');
  await err.getByText(/Line \d+, column \d+/).waitFor();
  assert.match(await err.textContent(), /can't evaluate field Nope/);
  assert.equal(await page.getByRole('button', { name: 'Save as new version' }).isDisabled(), true);

  // Fixed: previewed, then saved with a note as version 2.
  await area.fill(text.replace('Risk limits ({{.Nope}}):', 'Risk limits for {{.Base}}:'));
  await page.getByTestId('prompt-preview').getByText('Risk limits for BTC:').waitFor();
  await page.getByLabel('Note').fill('names the base currency in the limits');
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await page.getByText('Saved version 2: ai_strategy now asks with this prompt').waitFor();

  const history = await api(server.url, 'GET', '/api/strategy/prompt-versions/ai_strategy', { token });
  assert.deepEqual(history.data.versions.map((v) => [v.version, v.custom, v.changed, v.active]), [[2, true, true, true], [1, false, false, false]]);
  const preview = await api(server.url, 'GET', '/api/strategy/prompt/ai_strategy?symbol=ETH-USD', { token });
  assert.equal(preview.data.template_version, history.data.versions[0].template_version);
  assert.match(preview.data.prompt, /Risk limits for ETH:/);

  // The diff of v1 (shipped) and v2: one line changed.
  await page.getByTestId('prompt-diff-summary').getByText('1 line added, 1 deleted from v1 to v2.').waitFor();
  await shot(page, 'prompt-editor-1280');

  // Backtest this prompt: recorded decisions, the last full week of data.
  await page.getByLabel('Backtest start date').fill('2025-01-01');
  await page.getByLabel('Backtest end date').fill('2025-01-08');
  await page.getByRole('button', { name: 'Backtest v2' }).click();
  await page.getByRole('link', { name: 'Open the run' }).click();
  await page.getByTestId('bt-report').waitFor({ timeout: 60_000 });
  const id = new URL(page.url()).searchParams.get('run');
  const run = await api(server.url, 'GET', `/api/backtests/${id}`, { token });
  assert.equal(run.data.report.strategy_version, 2);
  assert.equal(run.data.report.ai.mode, 'recorded');
  assert.equal(run.data.report.ai.template_version, history.data.versions[0].template_version);

  // A 390 px phone: the same screen, no horizontal overflow.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/strategy/ai');
  await page.getByTestId('prompt-preview').waitFor();
  await page.getByTestId('prompt-diff-summary').waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than a 390 px phone`);
  await shot(page, 'prompt-editor-390');

  assert.deepEqual(consoleErrors, []);
});
