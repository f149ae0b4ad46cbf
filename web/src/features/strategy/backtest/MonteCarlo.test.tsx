import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { defaultForm, formErrors, formFromRequest, toAsk, validateBacktest, type BacktestForm as Form } from './model';
import type { BacktestReport } from './types';
import { MonteCarloCard } from './components/MonteCarlo';
import { BacktestForm } from './components/BacktestForm';

vi.mock('../strategies/api', () => ({ useStrategies: () => ({ data: [], isPending: false, isError: false }), useIsOperator: () => false }));
vi.mock('@/lib/products', () => ({ useSymbolChoices: () => ['BTC-USD'] }));
vi.mock('./components/OverridesForm', () => ({ OverridesForm: () => null }));

const filled = (over: Partial<Form> = {}): Form => ({ ...defaultForm(), strategy_name: 'technical_strategy', start_date: '2026-01-01', end_date: '2026-03-01', ...over });

const mc: NonNullable<BacktestReport['monte_carlo']> = {
  method: 'shuffle',
  runs: 1000,
  seed: 7,
  trades: 12,
  ruin_drawdown: 0.5,
  final_equity: { p5: 10450.5, p25: 10450.5, p50: 10450.5, p75: 10450.5, p95: 10450.5 },
  max_drawdown: { p5: 0.021, p25: 0.034, p50: 0.05, p75: 0.071, p95: 0.123 },
  risk_of_ruin: 0.004,
};

describe('Monte Carlo of the trades', () => {
  it('asks for none unless runs are given, and then for all four settings', () => {
    expect(toAsk(filled()).monte_carlo).toBeUndefined();
    const ask = toAsk(filled({ mc_runs: '2000', mc_method: 'shuffle', mc_seed: '42', mc_ruin_pct: '30' }));
    expect(ask.monte_carlo).toEqual({ runs: 2000, method: 'shuffle', seed: 42, ruin_drawdown: 0.3 });
  });

  it('checks the bounds the server checks, on the same fields', () => {
    expect(validateBacktest(filled({ mc_runs: '1000' }))).toEqual({});
    expect(validateBacktest(filled({ mc_runs: '50' })).mc_runs).toBe('Monte Carlo runs must be between 100 and 10000');
    expect(validateBacktest(filled({ mc_runs: '1000', mc_seed: '-1' })).mc_seed).toMatch(/whole number/);
    expect(validateBacktest(filled({ mc_runs: '1000', mc_ruin_pct: '120' })).mc_ruin_pct).toMatch(/at most 100%/);
    // Off: its other fields are not checked.
    expect(validateBacktest(filled({ mc_ruin_pct: '120' }))).toEqual({});
    expect(formErrors({ 'monte_carlo.runs': 'too many', 'monte_carlo.ruin_drawdown': 'too deep' })).toEqual({ mc_runs: 'too many', mc_ruin_pct: 'too deep' });
  });

  it('re-opens a stored run with its Monte Carlo settings', () => {
    const f = formFromRequest({ strategy_name: 's', symbol: 'BTC-USD', start_date: '2026-01-01', end_date: '2026-03-01', initial_capital: '10000', monte_carlo: { runs: 500, seed: 3, method: 'bootstrap', ruin_drawdown: 0.25 } });
    expect([f.mc_runs, f.mc_method, f.mc_seed, f.mc_ruin_pct]).toEqual(['500', 'bootstrap', '3', '25']);
    expect(formFromRequest({ strategy_name: 's', symbol: 'BTC-USD', start_date: '2026-01-01', end_date: '2026-03-01', initial_capital: '10000' }).mc_runs).toBe('');
  });

  it('shows the percentiles, the risk of ruin and what the figures assume', () => {
    render(<MonteCarloCard mc={mc} initial="10000" />);
    const card = screen.getByTestId('bt-mc');
    expect(card.textContent).toContain('1,000 runs, shuffled order, seed 7: each run replays 12 closed trades from $10,000.00.');
    const p95 = screen.getByTestId('bt-mc-p95');
    expect(within(p95).getByText('95th (good luck)')).toBeTruthy();
    expect(p95.textContent).toContain('$10,450.50');
    expect(p95.textContent).toContain('12.30%');
    expect(screen.getByTestId('bt-mc-p5').textContent).toContain('2.10%');
    expect(screen.getByTestId('bt-mc-ruin').textContent).toBe('Risk of ruin: 0.4% of runs fell 50% or more below their peak at some point.');
    const assumes = screen.getByTestId('bt-mc-assumes').textContent;
    expect(assumes).toContain('the final equity stays the same');
    expect(assumes).toContain('independent');
    expect(assumes).toContain("at each trade's exit");
  });

  it('is asked for from the form', async () => {
    const seen: Form[] = [];
    function Harness() {
      const [form, setForm] = useState<Form>(filled());
      seen.push(form);
      return <BacktestForm form={form} errors={{}} onChange={(k, v) => setForm((f) => ({ ...f, [k]: v }))} onSubmit={() => {}} running={false} period={{ known: true, span: null } as never} />;
    }
    render(<Harness />);
    expect(screen.queryByTestId('bt-mc-fields')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Monte Carlo of the trades (optional)' }));
    await userEvent.type(screen.getByLabelText('Runs'), '500');
    await userEvent.selectOptions(screen.getByLabelText('Method'), 'shuffle');
    expect(screen.getByTestId('bt-mc-fields').textContent).toContain('the same trades in a random order');
    const last = seen[seen.length - 1]!;
    expect(toAsk(last).monte_carlo).toEqual({ runs: 500, method: 'shuffle', seed: 0, ruin_drawdown: 0.5 });
  });
});
