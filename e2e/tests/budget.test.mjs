// The first load stays small: the JavaScript index.html loads (entry and
// preloaded chunks), gzip-compressed, is at most 100 kB (e2e/budget.mjs measures
// the same files as the server sends them, with the other budget figures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '..', '..', 'web', 'dist');
const BUDGET = 100 * 1000;

test('initial JavaScript within budget', () => {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  assert.ok(files.length > 0, 'index.html loads no script');
  const sizes = files.map((f) => [f, gzipSync(readFileSync(join(dist, f)), { level: 9 }).length]);
  const total = sizes.reduce((a, [, n]) => a + n, 0);
  console.log(`initial JavaScript: ${(total / 1000).toFixed(1)} kB gzip in ${files.length} files`);
  assert.ok(total <= BUDGET, `initial JavaScript ${total} bytes gzip exceeds ${BUDGET}: ${JSON.stringify(sizes)}`);
});
