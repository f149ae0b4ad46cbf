// Research with the default risk settings (maximum drawdown 15%): a sweep
// of the technical strategy over the first half of 2025 whose larger
// position size stops trading at the drawdown limit. Those trials are
// flagged halted and never ranked best; a losing cell of the heatmap is
// red, never green.
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

/** The red, green and blue of a CSS colour as the browser computed it. */
const rgb = (css) => {
  const m = /rgba?\((\d+), (\d+), (\d+)/.exec(css);
  assert.ok(m, css);
  return m.slice(1, 4).map(Number);
};

test('a sweep whose trials hit the drawdown limit: halted trials flagged, never best, losses red', async () => {
  const { page, external, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Hal Halted', 'hal@example.com');
  await page.goto('/strategy/research');
  await page.getByRole('heading', { name: 'Research' }).waitFor();
  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  await page.getByLabel('Add a parameter').selectOption('max_position_size');
  await page.getByLabel('Add a parameter').selectOption('indicators.rsi_period');
  await page.getByLabel('Values of max_position_size').fill('0.02, 0.5');
  await page.getByLabel('Values of indicators.rsi_period').fill('7, 14');
  await page.getByLabel('Start date').fill('2025-01-01');
  await page.getByLabel('End date (exclusive)').fill('2025-07-01');
  await page.getByLabel('Objective').selectOption('total_return');
  await page.getByRole('button', { name: 'Run Sweep' }).click();
  await page.getByTestId('sweep-done').waitFor({ timeout: 180_000 });

  const rows = page.getByTestId('trials-table').locator('tbody tr');
  assert.equal(await rows.count(), 4);
  const halted = [];
  let best = null;
  for (let i = 0; i < 4; i++) {
    const row = rows.nth(i);
    const text = await row.innerText();
    if ((await row.getByTestId('trial-halted').count()) > 0) halted.push(text);
    if ((await row.getByText('best', { exact: true }).count()) > 0) best = text;
  }
  assert.ok(halted.length > 0 && halted.length < 4, `halted trials: ${halted.length} of 4`);
  assert.ok(best, 'a best trial');
  assert.ok(!halted.includes(best), `the best trial is halted: ${best}`);
  assert.match(await page.getByTestId('sweep-halted').innerText(), new RegExp(`^${halted.length} of them halted by a risk limit: flagged below, and never ranked best\\.$`));
  assert.match(await page.getByTestId('trial-halted').first().getAttribute('title'), /^Maximum drawdown reached \(limit 15%\) on 2025-\d\d-\d\d: \d+ signals refused, \d+ of 181 days untraded$/);

  // The heatmap: every losing cell red (more red than green), every gaining one green.
  const cells = page.getByTestId('heat-cell');
  let losses = 0;
  for (let i = 0; i < (await cells.count()); i++) {
    const cell = cells.nth(i);
    const v = Number(await cell.innerText().then((t) => t.replace(/[^\d.-]/g, '')));
    const [r, g] = rgb(await cell.evaluate((el) => getComputedStyle(el).backgroundColor));
    if (v < 0) {
      losses++;
      assert.ok(r > g, `a loss of ${v} coloured rgb(${r}, ${g})`);
    } else if (v > 0) assert.ok(g > r, `a gain of ${v} coloured rgb(${r}, ${g})`);
  }
  assert.ok(losses > 0, 'the sweep has a losing cell');
  await page.getByTestId('heatmap').scrollIntoViewIfNeeded();
  await shot(page, 'research-halted');
  assert.deepEqual(external, []);
  assert.deepEqual(consoleErrors.filter((e) => !/404|Failed to load resource/.test(e)), []);
});
