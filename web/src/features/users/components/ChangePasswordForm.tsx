import { useState, type FormEvent } from 'react';
import { ErrorBox, Field } from '@/components/Field';
import { btn } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { useChangePassword } from '../api';

/** Changes the signed-in user's password; the server ends their other sessions. */
export function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useChangePassword();
  const fields = change.error instanceof ApiError ? change.error.fields : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(next !== confirm);
    if (next !== confirm) return;
    change.mutate(
      { current, next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setConfirm('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-3">
      <Field id="current-password" label="Current password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} error={fields.current_password} />
      <Field id="new-password" label="New password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} error={fields.new_password} />
      <Field
        id="confirm-password"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={mismatch ? 'Passwords do not match' : undefined}
      />
      {change.error && Object.keys(fields).length === 0 && <ErrorBox message={errorMessage(change.error, 'Failed to change password')} />}
      {change.isSuccess && (
        <p role="status" className="text-sm text-green-700 dark:text-green-400">
          Password changed. Your other sessions have been signed out and your API tokens revoked.
        </p>
      )}
      <p className="text-xs text-slate-500">Changing your password signs out your other sessions and revokes your API tokens.</p>
      <button type="submit" className={btn.primary} disabled={change.isPending}>
        Change password
      </button>
    </form>
  );
}
