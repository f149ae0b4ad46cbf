import { useState, type FormEvent } from 'react';
import { btn } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import type { Role, User } from '@/lib/types';
import { usersApi, useUserMutation, type UserChange } from '../api';

/** One account with its actions (a table row, or a card on a phone); results and refusals are reported through onResult. */
export function UserRow({ user, isMe, onResult, card = false }: { user: User; isMe: boolean; onResult: (ok: boolean, msg: string) => void; card?: boolean }) {
  const update = useUserMutation((ch: UserChange) => usersApi.update(user.id, ch));
  const change = (ch: UserChange, done: string) =>
    update.mutate(ch, { onSuccess: () => onResult(true, done), onError: (e) => onResult(false, errorMessage(e, 'Failed to update user')) });
  const disabled = !!user.disabled;
  // The server refuses an operator disabling themself (they would lock
  // themself out); say so here instead of offering a click that fails.
  const selfDisable = isMe && !disabled;
  const reasonId = `self-disable-${user.id}`;
  const role = (
    <select
      aria-label={`Role of ${user.email}`}
      className="rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800"
      value={user.role}
      disabled={update.isPending}
      onChange={(e) => change({ role: e.target.value as Role }, `${user.email} is now ${e.target.value}`)}
    >
      <option value="trader">trader</option>
      <option value="operator">operator</option>
    </select>
  );
  const status = disabled ? <span className="text-red-600 dark:text-red-400">Disabled</span> : 'Active';
  const actions = (
    <div className="flex flex-wrap gap-2">
      <button
        type="button"
        className={disabled ? btn.small : btn.small + ' text-red-700 dark:text-red-400'}
        disabled={update.isPending || selfDisable}
        aria-describedby={selfDisable ? reasonId : undefined}
        title={selfDisable ? 'You cannot disable your own account' : undefined}
        onClick={() => change({ disabled: !disabled }, `${disabled ? 'Enabled' : 'Disabled'} ${user.email}`)}
      >
        {disabled ? `Enable ${user.email}` : `Disable ${user.email}`}
      </button>
      {selfDisable && (
        <span id={reasonId} className="self-center text-xs text-slate-500 dark:text-slate-400">
          Your own account: another operator can disable it
        </span>
      )}
      {!isMe && <ResetPassword user={user} onResult={onResult} />}
    </div>
  );
  if (card) {
    // A phone: the account as a card, its actions underneath (nothing scrolls sideways).
    return (
      <li className="border-t border-slate-200 py-3 first:border-t-0 dark:border-slate-800" data-testid="user-card" data-layout="card">
        <p className="break-all font-medium">{user.email}</p>
        <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
          <div data-label="Name">
            <dt className="text-xs text-slate-500 dark:text-slate-400">Name</dt>
            <dd className="break-words">{user.name}</dd>
          </div>
          <div data-label="Status">
            <dt className="text-xs text-slate-500 dark:text-slate-400">Status</dt>
            <dd>{status}</dd>
          </div>
          <div data-label="Role">
            <dt className="text-xs text-slate-500 dark:text-slate-400">Role</dt>
            <dd>{role}</dd>
          </div>
          <div data-label="Created">
            <dt className="text-xs text-slate-500 dark:text-slate-400">Created</dt>
            <dd>{formatDateTime(user.created_at)}</dd>
          </div>
        </dl>
        <div className="mt-3">{actions}</div>
      </li>
    );
  }
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800">
      <td className="py-2 pr-3">{user.email}</td>
      <td className="py-2 pr-3">{user.name}</td>
      <td className="py-2 pr-3">{role}</td>
      <td className="py-2 pr-3">{status}</td>
      <td className="py-2 pr-3">{formatDateTime(user.created_at)}</td>
      <td className="py-2">{actions}</td>
    </tr>
  );
}

function ResetPassword({ user, onResult }: { user: User; onResult: (ok: boolean, msg: string) => void }) {
  const [open, setOpen] = useState(false);
  const [pw, setPw] = useState('');
  const reset = useUserMutation((p: string) => usersApi.resetPassword(user.id, p));
  const fieldError = reset.error instanceof ApiError ? reset.error.fields.new_password : undefined;
  if (!open) {
    return (
      <button type="button" className={btn.small} onClick={() => setOpen(true)}>
        Reset password of {user.email}
      </button>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reset.mutate(pw, {
      onSuccess: () => {
        setOpen(false);
        setPw('');
        onResult(true, `Password of ${user.email} reset; their sessions have ended`);
      },
      onError: (err) => !(err instanceof ApiError && err.fields.new_password) && onResult(false, errorMessage(err, 'Failed to reset password')),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-2">
      <div>
        <input
          type="password"
          autoComplete="new-password"
          aria-label={`New password for ${user.email}`}
          aria-invalid={!!fieldError}
          className="rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800"
          value={pw}
          onChange={(e) => setPw(e.target.value)}
        />
        {fieldError && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{fieldError}</p>}
      </div>
      <button type="submit" className={btn.small} disabled={reset.isPending}>
        Set password
      </button>
      <button type="button" className={btn.small} onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
