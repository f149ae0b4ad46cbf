import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type Column } from './DataTable';

interface Fill {
  id: string;
  symbol: string;
  price: string;
  status: string;
}

const rows: Fill[] = [
  { id: 'a', symbol: 'BTC-USD', price: '$64,250.10', status: 'open' },
  { id: 'b', symbol: 'ETH-USD', price: '$1,000.00', status: 'filled' },
];
const columns: Column<Fill>[] = [
  { header: 'Symbol', cell: (r) => r.symbol, title: true },
  { header: 'Price', cell: (r) => r.price },
  { header: 'Status', cell: (r) => r.status, testId: 'fill-status' },
];

/** A window as wide as `width` for the md query. */
function viewport(width: number) {
  vi.stubGlobal('matchMedia', (q: string) => ({ matches: q === '(min-width: 768px)' && width >= 768, media: q, addEventListener: () => {}, removeEventListener: () => {} }));
}

function renderFills() {
  render(
    <DataTable
      label="Fills"
      rows={rows}
      columns={columns}
      rowKey={(r) => r.id}
      rowTestId="fill-row"
      actions={(r) => (r.status === 'open' ? <button type="button">Cancel</button> : null)}
    />,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('DataTable', () => {
  it('is a table at md and up, the actions in the last column', () => {
    viewport(1280);
    renderFills();
    expect(screen.getByRole('table', { name: 'Fills' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Symbol', 'Price', 'Status', 'Actions']);
    const btc = screen.getByRole('row', { name: /BTC-USD/ });
    expect(within(btc).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(screen.getAllByTestId('fill-row')).toHaveLength(2);
  });

  it('is one card per row below md: label and value pairs, the title line, and the actions as buttons', () => {
    viewport(390);
    renderFills();
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('fill-row');
    expect(cards).toHaveLength(2);
    expect(cards.map((c) => c.dataset.layout)).toEqual(['card', 'card']);
    const first = within(cards[0]!);
    expect(first.getByText('BTC-USD')).toBeTruthy();
    expect(first.getByText('Price').nextSibling?.textContent).toBe('$64,250.10');
    expect(first.getByTestId('fill-status').textContent).toBe('open');
    expect(first.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(cards[1]!).queryByRole('button')).toBeNull();
  });
});
