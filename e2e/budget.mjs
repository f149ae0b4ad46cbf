// The speed budget, measured against a built kestrel binary (it builds nothing):
//   node e2e/budget.mjs [path/to/kestrel]      (default: ./bin/kestrel; `make build` makes it)
// 1. Initial JavaScript: the script and modulepreload files index.html names, as the server sends
//    them gzip-compressed (bytes on the wire, 1 kB = 1000 bytes).
// 2. First contentful paint, cold: a new browser context per load (empty cache), the median of 9,
//    read from performance.getEntriesByName('first-contentful-paint'). The browser is warmed first
//    with one load of another page, and loads are 500 ms apart, as a trader's running browser would
//    be: a freshly launched browser spends its first loads starting renderer processes, which is
//    the browser's cost, not the page's (the first cold loads are printed as well).
// 3. Start to healthy: spawn to the first 200 from GET /api/system/health, polled every 2 ms;
//    the first start on an empty data directory, then the median of 5 restarts on it.
// 4. Idle memory: VmRSS from /proc/PID/status 15 s after healthy, nothing connected.
// Prints the figures against the budgets and exits 1 when one is over.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { launch } from './lib/browser.mjs';

const binary = resolve(process.argv[2] || join(import.meta.dirname, '..', 'bin', 'kestrel'));
const port = 20000 + (process.pid % 20000);
const base = `http://127.0.0.1:${port}`;
const BUDGET = { jsKB: 100, fcpMs: 150, rssMB: 50, startMs: 300 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function start(dataDir) {
  const t0 = performance.now();
  const proc = spawn(binary, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--log-level', 'ERROR'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (c) => (stderr += c));
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`kestrel exited with ${proc.exitCode}: ${stderr}`);
    if (performance.now() - t0 > 30_000) throw new Error(`kestrel not healthy in 30 s: ${stderr}`);
    try {
      const res = await fetch(`${base}/api/system/health`);
      if (res.status === 200) return { proc, ms: performance.now() - t0 };
    } catch {
      // not listening yet
    }
    await sleep(2);
  }
}

async function stop(proc) {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}

function rssMB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]) / 1024;
}

async function initialJS() {
  const html = await (await fetch(`${base}/`)).text();
  const files = [...html.matchAll(/<(?:script|link)[^>]*(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  if (files.length === 0) throw new Error('index.html loads no script');
  let total = 0;
  const parts = [];
  for (const f of files) {
    // fetch() would decompress: count the bytes as they arrive with node's http instead.
    const bytes = await new Promise((res, rej) => {
      import('node:http').then(({ get }) =>
        get(`${base}${f}`, { headers: { 'Accept-Encoding': 'gzip' } }, (r) => {
          let n = 0;
          if (r.headers['content-encoding'] !== 'gzip') rej(new Error(`${f} not sent gzip-compressed`));
          r.on('data', (c) => (n += c.length));
          r.on('end', () => res(n));
        }).on('error', rej),
      );
    });
    total += bytes;
    parts.push(`${f.replace('/assets/', '')} ${(bytes / 1000).toFixed(1)}`);
  }
  return { kB: total / 1000, parts };
}

async function fcp(browser, url) {
  const warm = await browser.newContext();
  await (await warm.newPage()).goto(`${new URL(url).origin}/favicon.svg`);
  await warm.close();
  const runs = [];
  for (let i = 0; i < 9; i++) {
    await sleep(500);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const ms = await page.evaluate(async () => {
      for (let k = 0; k < 100; k++) {
        const [e] = performance.getEntriesByName('first-contentful-paint');
        if (e) return e.startTime;
        await new Promise((r) => setTimeout(r, 20));
      }
      return NaN;
    });
    runs.push(ms);
    await context.close();
  }
  return { median: median(runs), runs };
}

// floorFCP is the same measurement of a one-line page served by a bare Node server with the
// headers Kestrel sends on /login (its security headers among them: Cross-Origin-Opener-Policy
// makes the browser give the page a renderer process of its own): what any page costs in this
// browser on this machine, printed beside the figure for scale (it is not a budget).
async function floorFCP(browser) {
  const res = await fetch(`${base}/login`);
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !['content-length', 'content-encoding', 'vary', 'date', 'x-request-id'].includes(k)));
  const server = createServer((req, w) => {
    w.writeHead(req.url === '/favicon.svg' ? 404 : 200, headers);
    w.end('<!doctype html><html><head><title>floor</title></head><body><p>Kestrel</p></body></html>');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await fcp(browser, `http://127.0.0.1:${server.address().port}/`);
  } finally {
    server.close();
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'kestrel-budget-'));
const results = {};
try {
  const first = await start(dataDir);
  await stop(first.proc);
  const restarts = [];
  for (let i = 0; i < 5; i++) {
    const s = await start(dataDir);
    restarts.push(s.ms);
    if (i < 4) await stop(s.proc);
    else {
      await sleep(15_000);
      results.rss = rssMB(s.proc.pid);
      results.js = await initialJS();
      const browser = await launch();
      try {
        results.fcp = await fcp(browser, `${base}/login`);
        results.floor = await floorFCP(browser);
      } finally {
        await browser.close();
      }
      await stop(s.proc);
    }
  }
  results.start = { first: first.ms, median: median(restarts), runs: restarts };
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const r1 = (x) => x.toFixed(1);
const rows = [
  ['initial JavaScript (gzip on the wire)', `${r1(results.js.kB)} kB`, `${BUDGET.jsKB} kB`, results.js.kB <= BUDGET.jsKB, results.js.parts.join(', ')],
  ['first contentful paint, cold, /login', `${r1(results.fcp.median)} ms`, `${BUDGET.fcpMs} ms`, results.fcp.median <= BUDGET.fcpMs, `runs ${results.fcp.runs.map(r1).join(', ')}; a one-line page with the same headers: median ${r1(results.floor.median)} ms (runs ${results.floor.runs.map(r1).join(', ')})`],
  ['idle memory (VmRSS, 15 s after healthy)', `${r1(results.rss)} MB`, `${BUDGET.rssMB} MB`, results.rss <= BUDGET.rssMB, ''],
  ['start to healthy (restart, median of 5)', `${r1(results.start.median)} ms`, `${BUDGET.startMs} ms`, results.start.median <= BUDGET.startMs, `runs ${results.start.runs.map(r1).join(', ')}; first start on an empty data dir ${r1(results.start.first)} ms`],
];
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (cores share with whatever else runs)`);
for (const [name, got, budget, ok, note] of rows) console.log(`${ok ? 'ok  ' : 'OVER'} ${name}: ${got} (budget ${budget}) ${note}`);
process.exit(rows.every((r) => r[3]) ? 0 : 1);
