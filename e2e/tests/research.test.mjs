// Research from the screen: a two-parameter grid sweep of the technical
// strategy with walk-forward validation runs to completion as a job; the
// heatmap shows the objective for every pair of values with its legend, the
// folds show in-sample against out-of-sample with the stitched equity, and
// "Save as new version" shows what the server answers. Photographed on a
// desktop and a 390 px phone.
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

test('a two-parameter grid sweep with walk-forward completes with its heatmap and folds', async () => {
  const { page, external, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Rae Researcher', 'rae@example.com');
  await page.goto('/strategy/research');
  await page.getByRole('heading', { name: 'Research' }).waitFor();

  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  await page.getByLabel('Add a parameter').selectOption('indicators.rsi_period');
  await page.getByLabel('Add a parameter').selectOption('indicators.sma_long');
  await page.getByLabel('Values of indicators.rsi_period').fill('7, 21');
  await page.getByLabel('Values of indicators.sma_long').fill('20, 60');
  await page.getByLabel('Start date').fill('2026-01-01');
  await page.getByLabel('End date (exclusive)').fill('2026-02-15');
  await page.getByLabel('Objective').selectOption('total_return');
  await page.getByLabel('Walk-forward validation').check();
  await page.getByLabel('Folds').fill('3');
  await page.getByLabel('In-sample share').fill('0.6');
  await page.getByRole('button', { name: 'Run Sweep' }).click();

  await page.getByTestId('sweep-done').waitFor({ timeout: 120_000 });
  assert.match(await page.getByTestId('sweep-done').innerText(), /Completed: 4 trials/);
  // The heatmap: 2 x 2 cells, each with its value (or N/A), and the legend's ends.
  const cells = page.getByTestId('heat-cell');
  assert.equal(await cells.count(), 4);
  for (let i = 0; i < 4; i++) assert.match(await cells.nth(i).innerText(), /^-?\d+(\.\d+)?$|^N\/A$/);
  await page.getByTestId('heat-legend').waitFor();
  // The trials table has the four trials; sorting by the objective puts the best first.
  const rows = page.getByTestId('trials-table').locator('tbody tr');
  assert.equal(await rows.count(), 4);
  assert.match(await rows.first().innerText(), /best/);
  // Walk-forward: three folds with IS and OOS, the stitched curve and the figures.
  assert.equal(await page.getByTestId('fold-bars').getByText(/^Fold \d/).count(), 3);
  await page.getByTestId('stitched-chart').locator('canvas').first().waitFor();
  assert.match(await page.getByTestId('wf-figures').innerText(), /Deflated Sharpe ratio\s+(\d+\.\d%|N\/A)/);
  await shot(page, 'research-desktop');

  // Save as new version: a new version, never an overwrite (a refusal fails the test with its words).
  await rows.first().getByRole('button', { name: 'Save as new version' }).click();
  await page.getByRole('button', { name: 'Save version' }).click();
  const saved = page.getByTestId('save-version').getByText(/Saved as version \d+|Not saved:/);
  await saved.waitFor();
  assert.match(await saved.innerText(), /Saved as version \d+ of /);
  await shot(page, 'research-save');

  // A phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  // The charts follow their container's new width on the next frames: wait for the layout to settle.
  await page.waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth, null, { timeout: 5000 }).catch(() => {});
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await shot(page, 'research-390');
  assert.ok(overflow <= 0, `horizontal overflow of ${overflow}px at 390 px`);

  assert.deepEqual(external, []);
  assert.deepEqual(consoleErrors.filter((e) => !/404|Failed to load resource/.test(e)), []);
});
