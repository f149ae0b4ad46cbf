// Shadow models in the browser: AI Configuration names shadow models (the
// server refuses one equal to the live model, under its row), Test AI asks
// them with the live model (the local OpenAI-compatible fake), and each
// shadow's decision shows beside the live one, with the leaderboard.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, newPage, screenshotDir, shot } from '../lib/browser.mjs';
import { api, startServer } from '../lib/server.mjs';
import { startAIFake } from '../lib/aifake.mjs';
import { register } from '../lib/flows.mjs';

let server;
let browser;
let model;

before(async () => {
  server = await startServer();
  browser = await launch();
  model = await startAIFake('50ms');
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await model?.stop();
});

test('shadow models are asked beside the live model and ranked on the leaderboard', async () => {
  const { page, external } = await newPage(browser, server.url, { width: 1280, height: 900 });
  await register(page, 'Sam Shadow', 'sam@example.com');
  const token = await page.evaluate(() => sessionStorage.getItem('kestrel_token'));
  const set = await api(server.url, 'PUT', '/api/settings', { token, body: { api: { ai: { provider: 'openai', baseUrl: model.url, model: 'fake-model', timeout: 10000 } } } });
  assert.equal(set.status, 200, JSON.stringify(set));

  await page.goto('/strategy/ai');
  const group = page.getByTestId('shadow-models');
  await group.getByText('No shadow models.').waitFor();
  // The built-in analyst, and a second model on the same OpenAI-compatible host.
  await group.getByRole('button', { name: 'Add shadow model' }).click();
  await group.getByLabel('Shadow 1 provider').selectOption('builtin');
  await group.getByRole('button', { name: 'Add shadow model' }).click();
  await group.getByLabel('Shadow 2 model').fill('gpt-4.1-mini');
  // The live model itself as a shadow: refused by the server, under its row.
  await group.getByRole('button', { name: 'Add shadow model' }).click();
  await group.getByLabel('Shadow 3 model').fill('gpt-4.1-nano');
  assert.equal(await group.getByRole('button', { name: 'Add shadow model' }).isDisabled(), true);
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await group.getByText('A shadow model must differ from the live model (openai/gpt-4.1-nano)').waitFor();
  await group.getByRole('button', { name: 'Remove shadow 3' }).click();
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await page.getByText('AI strategy configuration saved').first().waitFor();
  await group.screenshot({ path: join(screenshotDir, 'strategy-shadows-config.png') });

  await page.getByRole('button', { name: 'Test AI' }).click();
  await page.getByText('AI analysis test completed successfully').waitFor({ timeout: 30_000 });
  await page.reload();

  // Test AI asked the instance's two symbols: two evaluations, each with both shadows beside it.
  const answers = page.getByTestId('shadow-answer');
  await answers.nth(3).waitFor({ timeout: 30_000 });
  const texts = await answers.allTextContents();
  assert.equal(texts.length, 4, texts.join(' | '));
  for (let i = 0; i < 4; i += 2) {
    assert.match(texts[i], /^Shadow Built-in analyst: (BUY|SELL|HOLD) \d+%$/);
    assert.match(texts[i + 1], /^Shadow openai\/gpt-4\.1-mini: (BUY|SELL|HOLD) \d+%$/);
  }

  const board = page.getByTestId('shadow-leaderboard');
  await board.getByText(/^2 evaluations on BTC-USD, ETH-USD/).waitFor();
  const rows = await board.getByTestId('leaderboard-row').allTextContents();
  assert.equal(rows.length, 3, rows.join(' | '));
  assert.match(rows[0], /^openai\/fake-modellive2/);
  assert.ok(rows.some((r) => r.startsWith('Built-in analystshadow2')), rows.join(' | '));
  assert.ok(rows.some((r) => r.startsWith('openai/gpt-4.1-minishadow2')), rows.join(' | '));

  // The same figures from the API (which the MCP tools share): the fake's answers
  // for the shadow on its host match the live model's, decision for decision.
  const lb = await api(server.url, 'GET', '/api/strategy/shadows/ai_strategy', { token });
  assert.equal(lb.status, 200);
  assert.equal(lb.data.evaluations, 2);
  for (const c of lb.data.recent) {
    assert.equal(c.decisions.length, 3);
    assert.equal(c.decisions[0].role, 'live');
    assert.equal(c.decisions[2].decision, c.decisions[0].decision);
  }

  await shot(page, 'strategy-shadows');
  await board.screenshot({ path: join(screenshotDir, 'strategy-shadows-leaderboard.png') });
  await answers.first().locator('xpath=ancestor::table').screenshot({ path: join(screenshotDir, 'strategy-shadows-decisions.png') });
  assert.deepEqual(external, [], 'the app must not contact any other host');
});
