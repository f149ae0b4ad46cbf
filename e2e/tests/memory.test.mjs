// Trade memory in the browser: AI Configuration's "Trade memory" group is off
// by default; turned on with a number of trades and a token budget, the save
// stores memory as a new version and the prompt preview gains the memory
// section (v3). With prompt v2 pinned, turning it on shows the server's
// prompt_version message under the group and saves nothing. 1280 px shot.
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

test('turn trade memory on, see it in the preview, and the server refuse it with v2 pinned', async () => {
  const { page, consoleErrors } = await newPage(browser, server.url, { width: 1280, height: 900 });
  await register(page, 'Mona Operator', 'mona@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));

  await page.goto('/strategy/ai');
  const memory = page.getByRole('switch', { name: 'Trade memory' });
  await memory.waitFor();
  assert.equal(await memory.getAttribute('aria-checked'), 'false');
  assert.equal(await page.getByLabel('Trades remembered').isDisabled(), true);
  await page.getByTestId('prompt-preview').getByText('Decide whether to BUY, SELL or HOLD BTC-USD now.').waitFor();
  assert.doesNotMatch(await page.getByTestId('prompt-preview').textContent(), /Your own recent closed trades/);

  await memory.click();
  await page.getByLabel('Trades remembered').fill('10');
  await page.getByLabel('Token budget').fill('800');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await page.getByText('AI strategy configuration saved successfully').waitFor();
  const cfg = await api(server.url, 'GET', '/api/strategy/config/ai_strategy', { token });
  assert.deepEqual(cfg.data.memory, { trades: 10, max_tokens: 800 });
  // The preview renders the saved configuration: v3 with the memory section.
  await page.getByTestId('prompt-preview').getByText('Your own recent closed trades in BTC-USD', { exact: false }).waitFor();
  await page.getByTestId('trade-memory').scrollIntoViewIfNeeded();
  await shot(page, 'memory-ai-config-1280');

  // Off, then v2 pinned through the API: turning memory on is refused.
  await memory.click();
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await assertEventually(async () => (await api(server.url, 'GET', '/api/strategy/config/ai_strategy', { token })).data.memory?.trades === 0);
  const pinned = await api(server.url, 'PUT', '/api/strategy/config/ai_strategy', { token, body: { prompt_version: 'v2' } });
  assert.equal(pinned.status, 200);
  await page.reload();
  await memory.click();
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await page.getByTestId('trade-memory').getByRole('alert').getByText('Prompt v2 has no trade memory section', { exact: false }).waitFor();
  const after = await api(server.url, 'GET', '/api/strategy/config/ai_strategy', { token });
  assert.equal(after.data.version, pinned.data.version);
  assert.deepEqual(consoleErrors, ['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
});

async function assertEventually(check, ms = 5000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail('condition not met in time');
}
