// A year of one-minute candles (525,600 of them, cut from the stored
// 15-minute candles) backtested through the API, then opened on the
// Backtesting screen: it opens (no "Something went wrong"; a 41.6 MB report
// whose 525,255 points were spread into Math.min crashed it), with the
// curve thinned and the drawdown halt marked; the time from the navigation
// to the drawn report is printed (within 2 s with SPEED_BUDGET=1) and
// recorded in docs/PERFORMANCE.md.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
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

test('a one-year one-minute backtest opens on the Backtesting screen within 2 s, thinned, with its halt marked', async () => {
  const { page, external, consoleErrors } = await newPage(browser, server.url);
  await register(page, 'Lars Long', 'lars@example.com');
  const login = await api(server.url, 'POST', '/api/auth/login', { body: { email: 'lars@example.com', password: 'correct horse battery' } });
  const token = login.data.token;
  // The last year of the stored data (its newest whole day is 2026-05-07).
  const ask = { strategy_name: 'technical_strategy', symbol: 'BTC-USD', start_date: '2025-05-08', end_date: '2026-05-08', initial_capital: 10000, params: { timeframe: 'ONE_MINUTE' } };
  const queued = await api(server.url, 'POST', '/api/backtests', { token, body: ask });
  assert.equal(queued.status, 202, JSON.stringify(queued.error));
  const id = queued.data.id;
  let job;
  for (let i = 0; i < 600; i++) {
    job = (await api(server.url, 'GET', `/api/backtests/${id}`, { token })).data;
    if (['completed', 'failed', 'cancelled'].includes(job.status)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(job.status, 'completed', job.error);
  const rep = job.report;
  // Every minute of the year the store holds (a few hours of it have no candle), each a point of the whole curve.
  assert.ok(rep.candles > 500_000, `${rep.candles} candles`);
  assert.equal(rep.equity_curve_points, rep.candles);
  assert.ok(rep.equity_curve.length <= 4000, `${rep.equity_curve.length} points sent`);

  // The app loaded once (as a trader in it), then the run opened by its link, five times: timed from the
  // navigation to the drawn report (both charts and the trade list); the median is the figure (the machine is
  // shared, and one opening can wait on another process).
  await page.goto('/strategy/backtest');
  await page.getByRole('heading', { name: 'Strategy Backtesting' }).waitFor();
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t0 = Date.now();
    if (process.env.TRACE_REQUESTS && i === 0) page.on('requestfinished', (r) => console.log(`${Date.now() - t0} ms ${r.url().replace(server.url, '')}`));
    await page.goto(`/strategy/backtest?run=${id}`);
    await page.getByTestId('bt-report').waitFor();
    await page.getByTestId('equity-chart').locator('canvas').first().waitFor();
    await page.getByTestId('fills-chart').locator('canvas').first().waitFor();
    await page.getByText(/Trades \(\d+\)/).waitFor();
    times.push(Date.now() - t0);
  }
  const ms = [...times].sort((a, b) => a - b)[2];
  console.log(`one-year one-minute backtest (${rep.candles} candles, ${rep.equity_curve.length} of ${rep.equity_curve_points} curve points sent) opened in ${ms} ms (median of ${times.join(', ')} ms; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')})`);
  // The 2 s budget is asserted on request (SPEED_BUDGET=1), as e2e/budget.mjs's are: on a machine other
  // processes load, an opening waits for the CPU; every run asserts that it opens at all, well within 10 s.
  assert.ok(ms < (process.env.SPEED_BUDGET ? 2000 : 10_000), `opened in ${ms} ms (median)`);
  assert.equal(await page.getByText('Something went wrong').count(), 0);
  // The halt is said first and marked on the curve.
  if (rep.halted) {
    await page.getByTestId('bt-halted').waitFor();
    assert.match(await page.getByTestId('equity-halt').innerText(), /^▼ Halted .*Maximum drawdown reached/);
  }
  await page.waitForTimeout(300); // let the charts paint
  await shot(page, 'backtest-one-year-one-minute');
  assert.deepEqual(external, []);
  assert.deepEqual(consoleErrors, []);
});
