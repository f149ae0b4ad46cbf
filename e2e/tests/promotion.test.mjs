// Promotion in the browser: with the default gates a version without a
// walk-forward sweep is refused and the screen lists each gate with the
// figure seen; with the sweep gate off, a version that trades soon goes to
// paper, fills in its own paper account on the sped-up replay while the
// main account stays as funded, its drift report against a backtest of the
// same window shows decision by decision, and Demote ends it. Photographed.
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

test('promote to paper, its own account, the drift report, demote', async () => {
  const { page, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Olive Operator', 'olive@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  const saved = await api(server.url, 'POST', '/api/strategy/versions/technical_strategy', {
    token,
    body: { params: { symbols: ['BTC-USD', 'ETH-USD', 'SOL-USD'], timeframe: 'FIFTEEN_MINUTE', indicators: { sma_short: 10, sma_long: 20, rsi_oversold: 40, rsi_overbought: 60 } }, note: 'trades soon' },
  });
  assert.equal(saved.data?.version?.version, 2, JSON.stringify(saved.error));

  await page.goto('/strategy');
  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  await page.getByTestId('gate-summary').waitFor();

  // Refused by the default gates: each gate with the figure seen.
  await page.getByRole('button', { name: 'Promote version 2 to paper' }).click();
  const refusal = page.getByRole('alert').filter({ has: page.getByRole('table', { name: 'Gates' }) });
  await refusal.waitFor();
  const gates = await refusal.getByTestId('gate-row').allInnerTexts();
  assert.equal(gates.length, 2);
  assert.match(gates[0], /✗ Out-of-sample trades[\s\S]*none[\s\S]*No finished walk-forward sweep of technical_strategy version 2/);
  await shot(page, 'promotion-refused');

  const put = await api(server.url, 'PUT', '/api/settings', { token, body: { trading: { promotion: { paper: { requireWalkForward: false } } } } });
  assert.equal(put.success, true, JSON.stringify(put.error));
  await page.reload();
  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  await page.getByRole('button', { name: 'Promote version 2 to paper' }).click();
  await page.getByText('Version 2 of technical_strategy now trades on paper in its own account').waitFor();
  const stage = page.getByTestId('stage-row').first();
  await stage.getByText('running').waitFor();

  // Its own account fills; the main one is untouched.
  const account = stage.getByLabel('Paper account of version 2');
  for (let i = 0; ; i++) {
    const fills = await account.locator('div').filter({ hasText: /^Fills/ }).locator('dd').innerText();
    if (Number(fills) > 0) break;
    assert.ok(i < 60, 'the paper stage did not fill');
    await page.waitForTimeout(2000); // the list refreshes every 10 s
  }
  const orders = await api(server.url, 'GET', '/api/trading/orders', { token });
  assert.equal(orders.success, true, JSON.stringify(orders.error));
  const list = Array.isArray(orders.data) ? orders.data : orders.data?.orders ?? [];
  assert.equal(list.length, 0, 'the main account has orders');
  await shot(page, 'promotion-paper-stage');

  // The drift report.
  await stage.getByRole('button', { name: 'Drift report' }).click();
  const report = page.getByTestId('drift-report');
  await report.getByTestId('drift-summary').first().waitFor({ timeout: 60_000 });
  assert.match(await report.getByTestId('drift-summary').first().innerText(), /\d+ candles both evaluated, \d+ decided alike/);
  await report.getByTestId('drift-row').first().waitFor();
  await shot(page, 'promotion-drift');

  // Demote.
  await stage.getByRole('button', { name: 'Demote' }).click();
  const dialog = page.getByRole('dialog', { name: 'Demote version 2 from paper?' });
  await dialog.getByLabel('Reason (optional)').fill('enough for the demo');
  await dialog.getByRole('button', { name: 'Demote' }).click();
  await page.getByText('The paper stage of version 2 was demoted').waitFor();
  await stage.getByText('demoted').first().waitFor();
  // The one refusal (409) the browser logs; nothing else.
  assert.deepEqual(consoleErrors, ['Failed to load resource: the server responded with a status of 409 (Conflict)']);
});
