// Two-factor sign-in through the browser: an operator whom the platform
// requires to use TOTP enrols at sign-in, sees the recovery codes once, and
// next time the login screen asks for the code.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { launch, newPage, shot } from '../lib/browser.mjs';
import { api, startServer } from '../lib/server.mjs';

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

// totp computes the RFC 6238 code (SHA-1, 6 digits, 30 s) of a base32 secret at time ms.
function totp(secret, ms) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30000)));
  const h = createHmac('sha1', key).update(counter).digest();
  const o = h[h.length - 1] & 0xf;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1e6).padStart(6, '0');
}

test('an operator enrols at sign-in, then signs in with a code', async () => {
  const reg = await api(server.url, 'POST', '/api/auth/register', { body: { email: 'olga@example.com', name: 'Olga', password: 'correct horse' } });
  const put = await api(server.url, 'PUT', '/api/settings', { token: reg.data.token, body: { system: { security: { enableTwoFactor: true } } } });
  assert.equal(put.status, 200);

  const { page, context } = await newPage(browser, server.url);
  await page.goto('/login');
  await page.getByLabel('Email').fill('olga@example.com');
  await page.getByLabel('Password').fill('correct horse');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Operators must use two-factor authentication', { exact: false }).first().waitFor();
  const secret = (await page.locator('code').first().textContent()).trim();
  await page.getByLabel('Code from the app').fill(totp(secret, Date.now()));
  await page.getByRole('button', { name: 'Sign in' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' });
  await codes.waitFor();
  assert.equal(await codes.getByRole('listitem').count(), 10);
  await shot(page, 'totp-recovery-codes');
  await page.getByRole('button', { name: /I have saved them/ }).click();
  await page.waitForURL('**/dashboard');
  await context.close();

  const second = await newPage(browser, server.url);
  await second.page.goto('/login');
  await second.page.getByLabel('Email').fill('olga@example.com');
  await second.page.getByLabel('Password').fill('correct horse');
  await second.page.getByRole('button', { name: 'Sign in' }).click();
  await second.page.getByLabel('Authentication code').waitFor();
  // The enrolling code's step is used up: the next step's code is accepted.
  await second.page.getByLabel('Authentication code').fill(totp(secret, Date.now() + 30000));
  await second.page.getByRole('button', { name: 'Sign in' }).click();
  await second.page.waitForURL('**/dashboard');
  await second.context.close();
});
