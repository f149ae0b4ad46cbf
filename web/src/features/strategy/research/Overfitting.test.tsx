import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Sweep } from './types';
import { Overfitting, pboVerdict } from './components/Overfitting';
import { defaultResearchForm, toSweepAsk, validateResearch } from './model';

const sweep = (over: Partial<Sweep>): Sweep =>
  ({ id: 'sw-1', status: 'completed', progress: 1, created_at: '2026-05-01T10:00:00Z', request: {}, objective: 'sharpe', parameters: [], trial_count: 4, trials: [], best: null, pbo: null, ...over }) as Sweep;

describe('probability of backtest overfitting', () => {
  it('shows the figure, the splits and what it assumes', () => {
    render(
      <Overfitting
        sweep={sweep({
          pbo: { probability: 0.625, blocks: 16, combinations: 12870, trials: 40, periods: 2160, objective: 'sharpe', logits: { min: -2, p25: -1, median: -0.4, p75: 0.3, max: 1.9, mean: -0.35 } },
        })}
      />,
    );
    expect(screen.getByTestId('sweep-pbo-value').textContent).toBe('62.5%');
    expect(screen.getByTestId('sweep-pbo').textContent).toContain('of 12,870 splits');
    expect(screen.getByTestId('sweep-pbo').textContent).toContain('likely picking luck');
    const how = screen.getByTestId('sweep-pbo-how').textContent;
    expect(how).toContain("2,160 returns of each of the 40 trials are cut into 16 blocks");
    expect(how).toContain('median logit -0.40');
    expect(how).toContain('whatever the sweep');
  });

  it("says why there is no figure, in the server's words", () => {
    render(<Overfitting sweep={sweep({ pbo: null, pbo_note: 'PBO needs at least 2 trials with their returns (1 here)' })} />);
    expect(screen.getByTestId('sweep-pbo-none').textContent).toBe('Not available: PBO needs at least 2 trials with their returns (1 here).');
  });

  it('reads the figure in plain words', () => {
    expect(pboVerdict(0)).toMatch(/little sign/);
    expect(pboVerdict(0.3)).toMatch(/with care/);
    expect(pboVerdict(0.5)).toMatch(/picking luck/);
  });
});

describe('PBO blocks in the sweep form', () => {
  it('sends pbo_blocks only when changed, and checks it', () => {
    const f = { ...defaultResearchForm(), strategy_name: 's', start_date: '2026-01-01', end_date: '2026-02-01', rows: [{ name: 'indicators.rsi_period', values: '7, 14', min: '', max: '', step: '' }] };
    expect(toSweepAsk(f).pbo_blocks).toBeUndefined();
    expect(toSweepAsk({ ...f, pbo_blocks: '8' }).pbo_blocks).toBe(8);
    expect(validateResearch(f).pbo_blocks).toBeUndefined();
    expect(validateResearch({ ...f, pbo_blocks: '7' }).pbo_blocks).toBe('pbo_blocks must be even, from 2 to 16');
  });
});
