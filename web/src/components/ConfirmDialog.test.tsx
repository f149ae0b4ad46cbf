import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';
import { Modal } from './Modal';

/** A confirmation asked from inside another dialog, as the Quick Trade modal asks to confirm an order. */
function Nested({ onOuterClose, onConfirm }: { onOuterClose: () => void; onConfirm: () => void }) {
  const [asking, setAsking] = useState(true);
  return (
    <Modal title="Quick Trade" onClose={onOuterClose}>
      {asking && <ConfirmDialog title="Confirm Order" message="Send it?" confirmLabel="Confirm BUY" onConfirm={onConfirm} onCancel={() => setAsking(false)} />}
    </Modal>
  );
}

describe('ConfirmDialog', () => {
  it('Escape cancels the inner confirmation only; the dialog under it stays until its own Escape', async () => {
    const outer = vi.fn();
    const confirm = vi.fn();
    render(<Nested onOuterClose={outer} onConfirm={confirm} />);
    expect(screen.getByRole('dialog', { name: 'Confirm Order' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Confirm Order' })).toBeNull();
    expect(outer).not.toHaveBeenCalled();
    expect(confirm).not.toHaveBeenCalled();
    await userEvent.keyboard('{Escape}');
    expect(outer).toHaveBeenCalledTimes(1);
  });

  it('calls onConfirm from its confirm button', async () => {
    const confirm = vi.fn();
    render(<Nested onOuterClose={vi.fn()} onConfirm={confirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Confirm BUY' }));
    expect(confirm).toHaveBeenCalledTimes(1);
  });
});
