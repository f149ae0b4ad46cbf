import type { ReactNode } from 'react';
import { btn, Modal } from './Modal';

/**
 * An in-app confirmation in place of the browser's native confirm: a question, what it concerns, and two buttons.
 * Cancelling (the button, Escape or a click outside) does nothing; confirming calls onConfirm.
 */
export function ConfirmDialog({
  title,
  message,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  message?: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal title={title} onClose={onCancel}>
      {message && <p className="text-sm">{message}</p>}
      {children}
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <button type="button" className={btn.secondary} onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? btn.danger : btn.primary} onClick={onConfirm} autoFocus>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
