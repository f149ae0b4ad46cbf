import { useState, type FormEvent } from 'react';
import { btn } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import type { Role, User } from '@/lib/types';
import { usersApi, useUserMutation, type UserChange } from '../api';

/** One account with its actions (a table row, or a card on a phone); results and refusals are reported through onResult. */
export function UserRow({ user, isMe, onResult, card = false }: { user: User; isMe: boolean; onResult: (ok: boolean, msg: string) => void; card?: boolean }) {
  const update = useUserMutation((ch: UserChange) => usersApi.update(user.id, ch));
  const [confirmDisable, setConfirmDisable] = useState(false);
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
  const toggle = () => change({ disabled: !disabled }, disabled ? `Enabled ${user.email}` : `Disabled ${user.email}; their sessions ended and their API tokens were revoked`);
  const actions = (
    <div className="flex flex-wrap gap-2">
      {confirmDisable ? (
        <span role="group" aria-label={`Confirm disabling ${user.email}`} className="flex flex-wrap items-center gap-2">
          <span className="text-xs text-slate-600 dark:text-slate-300">Disable {user.email}? Their sessions end and their API tokens are revoked (enabling again does not restore them).</span>
          <button
            type="button"
            className={btn.small + ' text-red-700 dark:text-red-400'}
            disabled={update.isPending}
            onClick={() => {
              setConfirmDisable(false);
              toggle();
            }}
          >
            Disable
          </button>
          <button type="button" className={btn.small} onClick={() => setConfirmDisable(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          className={disabled ? btn.small : btn.small + ' text-red-700 dark:text-red-400'}
          disabled={update.isPending || selfDisable}
          aria-describedby={selfDisable ? reasonId : undefined}
          title={selfDisable ? 'You cannot disable your own account' : undefined}
          onClick={() => (disabled ? toggle() : setConfirmDisable(true))}
        >
          {disabled ? `Enable ${user.email}` : `Disable ${user.email}`}
        </button>
      )}
      {selfDisable && (
        <span id={reasonId} className="self-center text-xs text-slate-500 dark:text-slate-400">
          Your own account: another operator can disable it
        </span>
      )}
      {!isMe && <ResetPassword user={user} onResult={onResult} />}
      {!isMe && <ResetSecondFactor user={user} onResult={onResult} />}
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
        onResult(true, `Password of ${user.email} reset; their sessions have ended and their API tokens were revoked`);
      },
      onError: (err) => !(err instanceof ApiError && err.fields.new_password) && onResult(false, errorMessage(err, 'Failed to reset password')),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-2">
      <p className="w-full text-xs text-slate-600 dark:text-slate-300">Their sessions end and their API tokens are revoked.</p>
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

/** Turns another user's two-factor authentication off (a lost phone), after an in-place confirmation; audited on the server. */
function ResetSecondFactor({ user, onResult }: { user: User; onResult: (ok: boolean, msg: string) => void }) {
  const [open, setOpen] = useState(false);
  const reset = useUserMutation(() => usersApi.resetTotp(user.id));
  if (!open) {
    return (
      <button type="button" className={btn.small} onClick={() => setOpen(true)}>
        Reset second factor of {user.email}
      </button>
    );
  }
  const run = () =>
    reset.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        onResult(true, `Two-factor authentication of ${user.email} reset; they sign in with their password and can set it up again`);
      },
      onError: (err) => {
        setOpen(false);
        onResult(false, errorMessage(err, 'Failed to reset the second factor'));
      },
    });
  return (
    <span role="group" aria-label={`Confirm resetting the second factor of ${user.email}`} className="flex flex-wrap items-center gap-2">
      <span className="text-xs text-slate-600 dark:text-slate-300">
        Turn off two-factor authentication of {user.email}? Do this only once you are sure it is them (a lost phone): until they set it up again, their password alone signs in.
      </span>
      <button type="button" className={btn.small + ' text-red-700 dark:text-red-400'} disabled={reset.isPending} onClick={run}>
        Reset second factor
      </button>
      <button type="button" className={btn.small} onClick={() => setOpen(false)}>
        Cancel
      </button>
    </span>
  );
}
