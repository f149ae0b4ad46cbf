import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/token';
import { aiData, aiEmpty, marketData, marketEmpty, portfolioData, portfolioEmpty, riskData, riskEmpty, tradingData, tradingEmpty } from './fixtures';
import Analytics from './routes/Analytics';
import { productsAnswer } from '@/test/products';

// lightweight-charts draws on a canvas, which jsdom lacks.
vi.mock('./components/TimeSeries', () => ({ TimeSeries: ({ testId }: { testId: string }) => <div data-testid={testId} /> }));

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown) => json(200, { success: true, data });
const fail = (status: number, message: string) => json(status, { success: false, error: { code: 'internal', message } });

type Handler = (tab: string, q: URLSearchParams) => Response;
let calls: { tab: string; period: string | null; symbol: string | null }[] = [];

function mockServer(handler: Handler) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://x');
      if (url.pathname === '/api/market-data/products') return json(200, { success: true, data: productsAnswer });
      const m = url.pathname.match(/^\/api\/analytics\/(\w+)$/);
      if (!m) return fail(404, `unexpected ${url.pathname}`);
      calls.push({ tab: m[1]!, period: url.searchParams.get('period'), symbol: url.searchParams.get('symbol') });
      return handler(m[1]!, url.searchParams);
    }),
  );
}

function renderScreen() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <Analytics />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const stat = (label: string) => screen.getByTestId(`stat-${label}`);
const line = (label: string) => screen.getByTestId(`line-${label}`);

beforeEach(() => setToken('t'));
afterEach(() => vi.unstubAllGlobals());

describe('Analytics Dashboard', () => {
  it('shows the title, subtitle and the five tabs', async () => {
    mockServer(() => ok(tradingData()));
    renderScreen();
    expect(screen.getByRole('heading', { name: 'Analytics Dashboard' })).toBeTruthy();
    expect(screen.getByText('Comprehensive trading and portfolio analytics')).toBeTruthy();
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs).toEqual(['Trading Performance', 'Portfolio Analytics', 'Market Analytics', 'AI Strategy Analytics', 'Risk Analytics']);
    await screen.findByTestId('stat-Win Rate');
  });
});

describe('Coverage', () => {
  it('says when the data covers less than the period asked for, and nothing when it covers it', async () => {
    const short = { requestedFrom: '2026-05-01T12:00:00Z', from: '2026-05-28T12:00:00Z', to: '2026-05-31T12:00:00Z', complete: false };
    mockServer(() => ok({ ...tradingData(), coverage: short }));
    renderScreen();
    expect((await screen.findByTestId('coverage-note')).textContent).toMatch(/^Data covers only .+ \(3\.0 days\) of the 30 days asked for\.$/);
  });

  it('shows no note when the data covers the whole period', async () => {
    mockServer(() => ok({ ...tradingData(), coverage: { requestedFrom: '2026-05-01T12:00:00Z', from: '2026-05-01T12:00:00Z', to: '2026-05-31T12:00:00Z', complete: true } }));
    renderScreen();
    await screen.findByTestId('stat-Win Rate');
    expect(screen.queryByTestId('coverage-note')).toBeNull();
  });
});

describe('Trading Performance', () => {
  it('fetches 30 days of all symbols and shows the figures with their definitions', async () => {
    mockServer(() => ok(tradingData()));
    renderScreen();
    expect(await screen.findByTestId('stat-Win Rate')).toBeTruthy();
    expect(calls[0]).toEqual({ tab: 'trading', period: '30d', symbol: null });
    expect(stat('Win Rate').textContent).toBe('66.7%');
    expect(stat('Win Rate').className).toContain('emerald');
    expect(stat('Win Rate').title).toMatch(/round trip/);
    expect(stat('Total P&L').textContent).toBe('+$1,234.50');
    expect(stat('Sharpe Ratio').textContent).toBe('1.84');
    expect(stat('Sharpe Ratio').title).toMatch(/not annualised/);
    expect(stat('Max Drawdown').textContent).toBe('$265.50');
    expect(stat('Max Drawdown').title).toMatch(/cumulative realized P&L/);
    expect(line('Total Trades').textContent).toBe('12');
    expect(line('Winning Trades').textContent).toBe('8');
    expect(line('Losing Trades').textContent).toBe('4');
    expect(line('Win/Loss Ratio').textContent).toBe('2.00');
    expect(line('Average Win').textContent).toBe('$250.00');
    expect(line('Average Loss').textContent).toBe('-$191.37');
    expect(line('Profit Factor').textContent).toBe('2.61');
    expect(line('Total Volume').textContent).toBe('$48,210.40');
    expect(line('Average Trade Size').textContent).toBe('$4,017.53');
    expect(screen.getByTestId('chart-daily-pnl')).toBeTruthy();
    expect(screen.getByTestId('chart-cumulative-pnl')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Winning and losing trades' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Trades by size' })).toBeTruthy();
  });

  it('shows dashes and "No data available for analysis" when the figures are null, never 0', async () => {
    mockServer(() => ok(tradingEmpty()));
    renderScreen();
    expect(await screen.findByTestId('stat-Win Rate')).toBeTruthy();
    for (const l of ['Win Rate', 'Total P&L', 'Sharpe Ratio', 'Max Drawdown']) expect(stat(l).textContent).toBe('—');
    for (const l of ['Profit Factor', 'Average Win', 'Average Loss', 'Win/Loss Ratio']) expect(line(l).textContent).toBe('—');
    expect(screen.getAllByText('No data available for analysis').length).toBeGreaterThanOrEqual(4);
    expect(screen.queryByTestId('chart-daily-pnl')).toBeNull();
  });

  it('shows Error Loading Data with the message, and Retry fetches again', async () => {
    let n = 0;
    mockServer(() => (++n === 1 ? fail(500, 'database unavailable') : ok(tradingData())));
    renderScreen();
    expect(await screen.findByText('Error Loading Data')).toBeTruthy();
    expect(screen.getByText('Failed to fetch performance data')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('stat-Win Rate')).toBeTruthy();
    expect(calls).toHaveLength(2);
  });

  it('refetches when the period or the symbol changes', async () => {
    mockServer(() => ok(tradingData()));
    renderScreen();
    await screen.findByTestId('stat-Win Rate');
    await userEvent.selectOptions(screen.getByLabelText('Period'), '90d');
    await waitFor(() => expect(calls.at(-1)).toEqual({ tab: 'trading', period: '90d', symbol: null }));
    await userEvent.selectOptions(screen.getByLabelText('Symbol'), 'ETH-USD');
    await waitFor(() => expect(calls.at(-1)).toEqual({ tab: 'trading', period: '90d', symbol: 'ETH-USD' }));
  });

  it('offers all symbols on Trading Performance only', async () => {
    mockServer((tab) => ok(tab === 'portfolio' ? portfolioData() : tradingData()));
    renderScreen();
    await screen.findByTestId('stat-Win Rate');
    await userEvent.selectOptions(screen.getByLabelText('Symbol'), 'All symbols');
    await waitFor(() => expect(calls.at(-1)).toEqual({ tab: 'trading', period: '30d', symbol: null }));
    await userEvent.click(screen.getByRole('tab', { name: 'Portfolio Analytics' }));
    await waitFor(() => expect(calls.at(-1)).toEqual({ tab: 'portfolio', period: '30d', symbol: 'BTC-USD' }));
    expect(screen.queryByRole('option', { name: 'All symbols' })).toBeNull();
  });
});

const openTab = async (name: string) => userEvent.click(screen.getByRole('tab', { name }));

describe('Portfolio Analytics', () => {
  it('shows the cards, the holdings table and the risk metrics', async () => {
    mockServer((tab) => ok(tab === 'portfolio' ? portfolioData() : tradingData()));
    renderScreen();
    await openTab('Portfolio Analytics');
    expect(await screen.findByTestId('stat-Total Value')).toBeTruthy();
    expect(calls.at(-1)).toEqual({ tab: 'portfolio', period: '30d', symbol: 'BTC-USD' });
    expect(stat('Total Value').textContent).toBe('$25,000.00');
    expect(stat('Unrealized P&L').textContent).toBe('+$2,000.00');
    expect(screen.getByTestId('unrealized-percent').textContent).toBe('+8.70%');
    expect(stat('Beta').textContent).toBe('0.93');
    expect(stat('Beta').title).toMatch(/covariance/);
    expect(stat('Diversification').textContent).toBe('1.18');
    const rows = screen.getAllByTestId('holding-row').map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows[1]).toEqual(['ETH-USD', '2.1235', '$3,296.60', '$7,000.00', '+$500.00 (+7.69%)', '28.0%']);
    expect(line('Volatility').textContent).toBe('51.20%');
    expect(line('Sharpe Ratio').textContent).toBe('1.21');
    expect(screen.getByText('Against BTC-USD')).toBeTruthy();
    const matrix = [...screen.getByTestId('correlation-matrix').querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(matrix).toEqual([
      ['BTC', '1.00', '0.86'],
      ['ETH', '0.86', '1.00'],
    ]);
    expect(screen.getByRole('img', { name: 'Allocation by asset' })).toBeTruthy();
    expect(screen.getByTestId('chart-portfolio-value')).toBeTruthy();
    // Allocation over time: a 100% column a day, each share with its figures on hover.
    const segments = [...screen.getByTestId('chart-allocation-history').querySelectorAll('rect')].map((r) => r.querySelector('title')!.textContent);
    expect(segments).toEqual([
      '2026-11-21 USD: 100.00% ($24,000.00)',
      '2026-11-22 BTC-USD: 72.00% ($18,000.00: 0.2 at $90,000.00)',
      '2026-11-22 ETH-USD: 28.00% ($7,000.00: 2.123456 at $3,296.60)',
      '2026-11-22 USD: 0.00% ($0.00)',
    ]);
    expect(screen.getByText(/as shares of the portfolio/).title).toMatch(/that day's close/);
  });

  it('shows the empty state without holdings or history', async () => {
    mockServer((tab) => ok(tab === 'portfolio' ? portfolioEmpty() : tradingData()));
    renderScreen();
    await openTab('Portfolio Analytics');
    expect(await screen.findByTestId('stat-Total Value')).toBeTruthy();
    expect(stat('Beta').textContent).toBe('—');
    expect(stat('Unrealized P&L').textContent).toBe('—');
    expect(screen.getAllByText('No data available for analysis').length).toBe(5);
  });

  it('shows the error with Retry, and refetches on a period change', async () => {
    let n = 0;
    mockServer((tab) => (tab !== 'portfolio' ? ok(tradingData()) : ++n === 1 ? fail(500, 'x') : ok(portfolioData())));
    renderScreen();
    await openTab('Portfolio Analytics');
    expect(await screen.findByText('Failed to fetch portfolio data')).toBeTruthy();
    expect(screen.getByText('Error Loading Data')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('stat-Total Value');
    await userEvent.selectOptions(screen.getByLabelText('Period'), '1y');
    await waitFor(() => expect(calls.at(-1)).toEqual({ tab: 'portfolio', period: '1y', symbol: 'BTC-USD' }));
  });
});

describe('Risk Analytics', () => {
  it('shows VaR with USD and parametric VaR labelled, the detailed metrics, stress tests and correlation levels', async () => {
    mockServer((tab) => ok(tab === 'risk' ? riskData() : tradingData()));
    renderScreen();
    await openTab('Risk Analytics');
    expect(await screen.findByTestId('stat-VaR 95%')).toBeTruthy();
    expect(calls.at(-1)).toEqual({ tab: 'risk', period: '30d', symbol: 'BTC-USD' });
    expect(stat('VaR 95%').textContent).toBe('3.20% ($800.00)');
    expect(stat('VaR 95%').title).toMatch(/5% quantile/);
    expect(screen.getByText('Parametric: 3.45%')).toBeTruthy();
    expect(stat('Max Drawdown').textContent).toBe('11.80%');
    expect(line('VaR 99%').textContent).toBe('5.10% ($1,275.00)');
    expect(line('Parametric VaR 95%').title).toMatch(/normally distributed/);
    expect(line('Expected Shortfall').textContent).toBe('4.27% ($1,067.50)');
    expect(line('Expected Shortfall').title).toMatch(/mean of the daily returns/);
    expect(line('Current Drawdown').textContent).toBe('2.10%');
    expect(line('Recovery Factor').textContent).toBe('1.70');
    expect(line('Sortino Ratio').textContent).toBe('1.90');
    expect(line('Sortino Ratio').title).toMatch(/negative returns/);
    expect(line('Calmar Ratio').textContent).toBe('2.40');
    expect(screen.getByText('From 29 daily returns of the portfolio value.')).toBeTruthy();
    const stress = screen.getAllByTestId('stress-card');
    expect(stress.map((s) => s.getAttribute('data-severe'))).toEqual(['true', 'false']);
    expect(stress[0]!.textContent).toContain('-$7,500.00 (-30.00%)');
    // Probabilities are frequencies in the shipped history, or say why there is none.
    expect(stress[0]!.textContent).toContain('Probability 1.39% (10 of 720 30-day windows)');
    expect(stress[1]!.textContent).toContain('No probability: never happened in the 749 1-day windows');
    const scenarios = screen.getAllByTestId('scenario-row').map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(scenarios[0]).toEqual(['BTC-USD falls 10% or more in a dayBTC holdings lose 10%', '0.13% (1 of 749 1-day windows)', '-$1,800.00 (-7.20%)']);
    expect(scenarios[1]![2]).toBe('-$5,000.00 (-20.00%)');
    expect(screen.getAllByTestId('probability')[0]!.title).toMatch(/shipped daily history/);
    const levels = [...screen.getByTestId('correlation-risk').querySelectorAll('tbody tr')].map((r) => r.lastElementChild!.textContent);
    expect(levels).toEqual(['High', 'Low']);
    expect(screen.getByTestId('chart-var-history')).toBeTruthy();
    expect(screen.getByTestId('chart-drawdown')).toBeTruthy();
    // What the limits measure: the venue since the switch to it.
    const limits = screen.getByTestId('limits-state').textContent!;
    expect(limits).toContain('Risk limits measure Coinbase · live Coinbase prices since ' + new Date('2026-05-01T10:00:00Z').toLocaleString());
    expect(limits).toContain('peak $25,400.00');
    expect(limits).toContain("day's start $25,100.00, 3 trades today.");
  });

  it('shows dashes and the empty state when the history is too short', async () => {
    mockServer((tab) => ok(tab === 'risk' ? riskEmpty() : tradingData()));
    renderScreen();
    await openTab('Risk Analytics');
    expect(await screen.findByTestId('stat-VaR 95%')).toBeTruthy();
    expect(stat('VaR 95%').textContent).toBe('—');
    expect(line('Expected Shortfall').textContent).toBe('—');
    expect(line('Calmar Ratio').textContent).toBe('—');
    expect(screen.getAllByText('No data available for analysis').length).toBe(6);
  });

  it('shows the error with Retry, and refetches on a symbol change', async () => {
    let n = 0;
    mockServer((tab) => (tab !== 'risk' ? ok(tradingData()) : ++n === 1 ? fail(503, 'x') : ok(riskData())));
    renderScreen();
    await openTab('Risk Analytics');
    expect(await screen.findByText('Failed to fetch risk analytics data')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('stat-VaR 95%');
    await userEvent.selectOptions(screen.getByLabelText('Symbol'), 'SOL-USD');
    await waitFor(() => expect(calls.at(-1)).toEqual({ tab: 'risk', period: '30d', symbol: 'SOL-USD' }));
  });
});

describe('AI Strategy Analytics', () => {
  it('shows the cards, the strategies with their badge and the 10 most recent decisions with outcome and P&L', async () => {
    mockServer((tab) => ok(tab === 'ai' ? aiData() : tradingData()));
    renderScreen();
    await openTab('AI Strategy Analytics');
    expect(await screen.findByTestId('stat-Accuracy Rate')).toBeTruthy();
    expect(calls.at(-1)).toEqual({ tab: 'ai', period: '30d', symbol: 'BTC-USD' });
    expect(stat('Accuracy Rate').textContent).toBe('64.0%');
    expect(stat('Accuracy Rate').title).toMatch(/resolved decisions/);
    expect(stat('Average Confidence').textContent).toBe('72.0%');
    expect(stat('Average Confidence').className).toContain('amber');
    expect(stat('Total P&L').textContent).toBe('+$310.25');
    expect(stat('Response Time').textContent).toBe('1.23s');
    const strategyRow = [...screen.getByTestId('ai-strategies').querySelectorAll('tbody tr')][0]!;
    expect([...strategyRow.querySelectorAll('td')].map((c) => c.textContent)).toEqual(['ai_strategy', 'Active', '25', '60.0%', '+$310.25', '1.10', '$45.20', '72.0%']);
    const badges = [...screen.getByTestId('ai-strategies').querySelectorAll('tbody tr')].map((r) => r.children[1]!.textContent);
    expect(badges).toEqual(['Active', 'Inactive']);
    const list = screen.getAllByTestId('ai-decision');
    expect(list).toHaveLength(10);
    expect(list[0]!.textContent).toContain('BTC-USD');
    expect(list[0]!.textContent).toContain('BUY');
    expect(list[0]!.textContent).toContain('85.0% confidence');
    expect(list[0]!.textContent).toContain('Executed');
    expect(list[0]!.textContent).toContain('Reason 0');
    expect(list[0]!.textContent).toContain('Profit+$42.50');
    expect(list[1]!.textContent).toContain('Loss-$10.00');
    expect(list[2]!.textContent).toContain('Not executed');
    expect(screen.getAllByTestId('ai-outcome')[2]!.textContent).toBe('Pending');
    expect(screen.getByRole('img', { name: 'Decisions by confidence' })).toBeTruthy();
    expect(screen.getByTestId('chart-ai-performance')).toBeTruthy();
  });

  it('shows dashes and the empty state without decisions', async () => {
    mockServer((tab) => ok(tab === 'ai' ? aiEmpty() : tradingData()));
    renderScreen();
    await openTab('AI Strategy Analytics');
    expect(await screen.findByTestId('stat-Accuracy Rate')).toBeTruthy();
    for (const l of ['Accuracy Rate', 'Average Confidence', 'Total P&L', 'Response Time']) expect(stat(l).textContent).toBe('—');
    expect(screen.getAllByText('No data available for analysis').length).toBe(5);
  });

  it('shows the error with Retry, and refetches on a period change', async () => {
    let n = 0;
    mockServer((tab) => (tab !== 'ai' ? ok(tradingData()) : ++n === 1 ? fail(500, 'x') : ok(aiData())));
    renderScreen();
    await openTab('AI Strategy Analytics');
    expect(await screen.findByText('Failed to fetch AI analytics data')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('stat-Accuracy Rate');
    await userEvent.selectOptions(screen.getByLabelText('Period'), '7d');
    await waitFor(() => expect(calls.at(-1)).toEqual({ tab: 'ai', period: '7d', symbol: 'BTC-USD' }));
  });
});

describe('Market Analytics', () => {
  it('says which real dates the sandbox market statistics read from the candle store', async () => {
    const dates = { source: 'candle store', from: '2024-08-18T00:00:00Z', to: '2024-11-16T03:15:00Z', note: 'The sandbox replays the stored history in a loop; these statistics read the stored candles by their real dates' };
    mockServer((tab) => ok(tab === 'market' ? marketData({ dates }) : tradingData()));
    renderScreen();
    await openTab('Market Analytics');
    expect((await screen.findByTestId('market-dates')).textContent).toBe(
      'Daily candles: the candle store, by real dates, 2024-08-18 to 2024-11-16 03:15 UTC. The sandbox replays the stored history in a loop; these statistics read the stored candles by their real dates.',
    );
  });

  it('fetches 7 days, shows market cap with its supply source and date, Kestrel market index, trends and correlations', async () => {
    mockServer((tab) => ok(tab === 'market' ? marketData() : tradingData()));
    renderScreen();
    await openTab('Market Analytics');
    expect(await screen.findByTestId('stat-Market Cap')).toBeTruthy();
    expect(calls.at(-1)).toEqual({ tab: 'market', period: '7d', symbol: 'BTC-USD' });
    expect((screen.getByLabelText('Period') as HTMLSelectElement).value).toBe('7d');
    expect(stat('Market Cap').textContent).toBe('$2.13T');
    expect(screen.getByTestId('supply-source').textContent).toBe('Circulating supply as of 2025-01-01; source below');
    expect(screen.getByTestId('supply-note').textContent).toContain("as of 2025-01-01. Source: BTC: the protocol's issuance schedule");
    expect(screen.getByTestId('supply-note').textContent).toContain('Not computed: sectorAnalysis');
    expect(screen.getByTestId('supply-note').textContent).toContain('Unverified supply figures: ETH-USD, ADA-USD, SOL-USD');
    expect(screen.getByTestId('index-detail').textContent).toContain('Greed. Momentum 70, volatility 55, volume 65.');
    expect(stat('24h Volume').textContent).toBe('$58.76B');
    expect(stat('Volatility Index').textContent).toBe('45.2%');
    expect(stat('Kestrel Market Index').textContent).toBe('63');
    expect(stat('Kestrel Market Index').className).toContain('emerald');
    expect(stat('Kestrel Market Index').title).toMatch(/Not a third-party/);
    expect(screen.queryByText(/^Fear/)).toBeNull();
    const rows = screen.getAllByTestId('trend-row').map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows[1]).toEqual(['ADA-USD', '$0.4123', '-2.37%', '$410M', '$14.8B', 'bearish']);
    const cards = screen.getAllByTestId('correlation-card').map((c) => c.textContent);
    expect(cards).toEqual(['BTC-USD / ETH-USD0.82strong', 'BTC-USD / ADA-USD0.25weak']);
    expect(screen.getByTestId('chart-price-comparison')).toBeTruthy();
    expect(screen.getByTestId('chart-volume')).toBeTruthy();
  });

  it('colours the index red at 50 or below, and shows the empty state', async () => {
    mockServer((tab) => ok(tab === 'market' ? { ...marketEmpty(), metrics: { ...marketEmpty().metrics, fearGreedIndex: 50 } } : tradingData()));
    renderScreen();
    await openTab('Market Analytics');
    expect(await screen.findByTestId('stat-Market Cap')).toBeTruthy();
    expect(stat('Kestrel Market Index').className).toContain('red');
    expect(stat('Market Cap').textContent).toBe('—');
    expect(stat('24h Volume').textContent).toBe('—');
    expect(screen.getAllByText('No data available for analysis').length).toBe(5);
  });

  it('shows the error with Retry, and refetches on a symbol change', async () => {
    let n = 0;
    mockServer((tab) => (tab !== 'market' ? ok(tradingData()) : ++n === 1 ? fail(502, 'x') : ok(marketData())));
    renderScreen();
    await openTab('Market Analytics');
    expect(await screen.findByText('Failed to fetch market data')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('stat-Market Cap');
    await userEvent.selectOptions(screen.getByLabelText('Symbol'), 'ETH-USD');
    await waitFor(() => expect(calls.at(-1)).toEqual({ tab: 'market', period: '7d', symbol: 'ETH-USD' }));
  });
});
