// Launches Debian's Chromium headless through playwright-core (no browser download).
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recordPage } from './answers.mjs';

export const screenshotDir = resolve(import.meta.dirname, '..', 'screenshots');

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic',
    ],
  });
}

// newPage opens a page that fails the test on any request to a host other than ours.
export async function newPage(browser, baseURL, viewport = { width: 1366, height: 900 }) {
  const context = await browser.newContext({ baseURL, viewport, acceptDownloads: true });
  const page = await context.newPage();
  recordPage(page);
  const external = [];
  const consoleErrors = [];
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (!['127.0.0.1', 'localhost'].includes(u.hostname) && !['data:', 'blob:'].includes(u.protocol)) external.push(req.url());
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  return { page, context, external, consoleErrors };
}

export async function shot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}
