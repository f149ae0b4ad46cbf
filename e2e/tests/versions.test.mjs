// Strategy versions in the browser: the configuration form and the API's
// save (the Research screen's "Save as new version") each store a new
// version; Strategy Management -> Versions shows the history and a diff,
// and activating an older version (after the in-app confirmation) rolls the
// running configuration back without losing any version. Desktop and a
// 390 px phone are photographed; the phone has no horizontal overflow.
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

test('saving makes versions; Versions shows the history and a diff; activate rolls back', async () => {
  const { page, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Olive Operator', 'olive@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));

  // The form's Save is version 2 (RSI period 7).
  await page.goto('/strategy/technical');
  await page.getByRole('heading', { name: 'Technical Analysis Strategy' }).waitFor();
  await page.getByTestId('config-version').getByText('Runs version 1.').waitFor();
  await page.getByLabel('RSI Period', { exact: true }).fill('7');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await page.getByText('Technical analysis strategy configuration saved successfully').waitFor();
  await page.getByTestId('config-version').getByText('Runs version 2.').waitFor();

  // The API's save, from version 1, is version 3 (what Research's button sends).
  const saved = await api(server.url, 'POST', '/api/strategy/versions/technical_strategy', {
    token, body: { params: { indicators: { rsi_oversold: 25 } }, note: 'best trial of the RSI sweep', parent: 1 },
  });
  assert.equal(saved.success, true, JSON.stringify(saved.error));
  assert.equal(saved.data.version.version, 3);
  const bad = await api(server.url, 'POST', '/api/strategy/versions/technical_strategy', { token, body: { params: { indicators: { rsi_period: 99 } } } });
  assert.equal(bad.error?.fields?.['indicators.rsi_period'], 'RSI period must be between 2 and 50');

  await page.goto('/strategy');
  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  const rows = page.getByTestId('version-row');
  await rows.nth(2).waitFor();
  assert.equal(await rows.count(), 3);
  assert.match(await rows.nth(0).innerText(), /v3\s*from v1[\s\S]*olive@example\.com[\s\S]*best trial of the RSI sweep[\s\S]*Active/);
  assert.match(await rows.nth(1).innerText(), /v2\s*from v1[\s\S]*olive@example\.com/);
  assert.match(await rows.nth(2).innerText(), /v1[\s\S]*Default configuration/);
  // The default diff is v2 -> v3: RSI period 7 -> 14 and oversold 30 -> 25.
  await page.getByTestId('diff-summary').getByText('2 of 15 parameters differ between v2 and v3.').waitFor();
  const diff = await page.getByTestId('diff-row').allInnerTexts();
  assert.deepEqual(diff.map((t) => t.split(/\s+/).join(' ')), ['indicators.rsi_oversold 30 25', 'indicators.rsi_period 7 14']);
  await shot(page, 'strategy-versions');

  // Roll back to version 2 after the confirmation.
  await page.getByRole('button', { name: 'Activate version 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Activate version 2?' });
  await dialog.getByText('technical_strategy will run version 2 instead of version 3').waitFor();
  await shot(page, 'strategy-versions-confirm');
  await dialog.getByRole('button', { name: 'Activate version 2' }).click();
  await page.getByText('technical_strategy now runs version 2 (was version 3)').waitFor();
  await rows.nth(1).getByText('Active').waitFor();
  const cfg = await api(server.url, 'GET', '/api/strategy/config/technical_strategy', { token });
  assert.equal(cfg.data.version, 2);
  assert.equal(cfg.data.indicators.rsi_period, 7);
  assert.equal(cfg.data.indicators.rsi_oversold, 30);
  const list = await api(server.url, 'GET', '/api/strategy/versions/technical_strategy', { token });
  assert.deepEqual(list.data.versions.map((v) => [v.version, v.active]), [[3, false], [2, true], [1, false]]);
  const missing = await api(server.url, 'POST', '/api/strategy/versions/technical_strategy/9/activate', { token });
  assert.equal(missing.error?.code, 'not_found');

  // A 390 px phone: the same screen, no horizontal overflow.
  // (The session lives in the tab's sessionStorage: the same page, resized.)
  const phone = page;
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto('/strategy');
  await phone.getByRole('tab', { name: 'Versions' }).click();
  await phone.getByLabel('Strategy', { exact: true }).selectOption('technical_strategy');
  await phone.getByTestId('version-row').nth(2).waitFor();
  await phone.getByTestId('diff-summary').waitFor();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than a 390 px phone`);
  await shot(phone, 'strategy-versions-390');

  assert.deepEqual(consoleErrors, []);
});
