import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { VisibleSpan } from './VisibleSpan';

const jan1 = Date.UTC(2026, 0, 1) / 1000;
const mar1 = Date.UTC(2026, 2, 1) / 1000;

describe('VisibleSpan', () => {
  it('says when a chart shows the whole run', () => {
    render(<VisibleSpan span={{ from: jan1, to: mar1 }} first={jan1} last={mar1} onFit={() => {}} testId="s" />);
    expect(screen.getByTestId('s').textContent).toBe('Showing 01/01/2026, 00:00:00 to 03/01/2026, 00:00:00: the whole run');
    expect(screen.getByTestId('s').getAttribute('data-whole')).toBe('true');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says when it shows part of the run, and fits it again on a click', () => {
    const onFit = vi.fn();
    render(<VisibleSpan span={{ from: jan1 + 86_400 * 30, to: mar1 }} first={jan1} last={mar1} onFit={onFit} testId="s" />);
    expect(screen.getByTestId('s').textContent).toMatch(/^Showing 01\/31\/2026, 00:00:00 to 03\/01\/2026, 00:00:00: part of the run \(01\/01\/2026/);
    expect(screen.getByTestId('s').getAttribute('data-whole')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Show the whole run' }));
    expect(onFit).toHaveBeenCalledOnce();
  });

  it('shows nothing before the chart has drawn', () => {
    const { container } = render(<VisibleSpan span={null} first={jan1} last={mar1} onFit={() => {}} testId="s" />);
    expect(container.textContent).toBe('');
  });
});
