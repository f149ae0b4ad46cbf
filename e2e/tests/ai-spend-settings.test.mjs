// The AI spend card links to the model prices and monthly budgets in
// Settings; the server's messages show by field, and a saved budget is
// what the spend card then reports.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, newPage, screenshotDir, shot } from '../lib/browser.mjs';
import { register } from '../lib/flows.mjs';
import { startServer } from '../lib/server.mjs';

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

test('AI prices and monthly budget from the spend card to Settings and back', async () => {
  const { page, context, external } = await newPage(browser, server.url, { width: 1280, height: 900 });
  await register(page, 'Olga Operator', 'olga@example.com');

  await page.goto('/strategy/ai');
  const card = page.getByTestId('ai-spend');
  await card.getByText('No AI decisions this month and no budget set.').waitFor();
  await card.getByRole('link', { name: 'Set model prices and monthly budgets in Settings' }).click();
  await page.waitForURL('**/settings#ai-spend-settings');
  await page.getByText('No prices yet: every AI decision').waitFor();

  await page.getByLabel('Model to price').fill('gpt-4.1-nano');
  await page.getByLabel('Its input price').fill('0.10');
  await page.getByLabel('Its output price').fill('0.40');
  await page.getByRole('button', { name: 'Add price' }).click();
  assert.equal(await page.getByLabel('Output price of gpt-4.1-nano').inputValue(), '0.40');

  // A negative budget: the server's message under the field and in the list; saving is refused.
  const budget = page.getByLabel('Monthly budget for OpenAI-compatible');
  await budget.fill('-1');
  await page.getByText('Monthly budget cannot be negative').first().waitFor();
  const under = await budget.getAttribute('aria-describedby');
  assert.equal(await page.evaluate((id) => document.getElementById(id)?.textContent, under), 'Monthly budget cannot be negative');
  await page.getByText('(Monthly budget for openai)').waitFor();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByRole('alert').filter({ hasText: /error/ }).waitFor();
  await page.locator('#ai-spend-settings').screenshot({ path: join(screenshotDir, 'ai-spend-settings-error.png') });

  await budget.fill('5');
  await page.getByText('Configuration Errors').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Settings saved').waitFor();
  await shot(page, 'ai-spend-settings');

  // Saved on the server, as exact decimals.
  await page.reload();
  assert.equal(await page.getByLabel('Input price of gpt-4.1-nano').inputValue(), '0.1');
  assert.equal(await page.getByLabel('Monthly budget for OpenAI-compatible').inputValue(), '5');
  await page.goto('/strategy/ai');
  await page.getByTestId('ai-spend').getByText('of $5 budget').waitFor();

  assert.deepEqual(external, [], 'the app must not contact any other host');
  await context.close();
});
