import { useState, type FormEvent } from 'react';
import { ErrorBox, Field } from '@/components/Field';
import { btn, inputClass } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import type { User } from '@/lib/types';
import { useUsers } from '../api';
import { useTotpStatus } from '../totpApi';
import { tokensApi, useApiTokens, useTokenMutation, type ApiToken, type CreatedToken, type NewApiToken, type TokenScope } from '../tokensApi';

const lifetimes = [7, 30, 90, 180, 360];

const scopeHelp: Record<TokenScope, string> = {
  read: 'read: market data, orders, positions, strategies, backtests and analytics; no changes',
  paper: 'paper: also trades and runs backtests, but only while the venue is the sandbox',
  trade: 'trade: also trades on any venue, live included',
};

/**
 * API tokens for agents and scripts: create one (shown once), see when each
 * was last used, revoke. Operators pick whose tokens they manage.
 */
export function ApiTokens({ me }: { me: User }) {
  const [owner, setOwner] = useState<string | undefined>(undefined);
  return (
    <div className="space-y-4">
      {me.role === 'operator' && <OwnerPicker me={me} value={owner} onChange={setOwner} />}
      <TokenForm owner={owner} />
      <TokenList owner={owner} />
    </div>
  );
}

function OwnerPicker({ me, value, onChange }: { me: User; value?: string; onChange: (id?: string) => void }) {
  const users = useUsers();
  return (
    <div className="max-w-md">
      <label htmlFor="token-owner" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        Tokens of
      </label>
      <select id="token-owner" className={inputClass} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{me.email} (you)</option>
        {(users.data ?? [])
          .filter((u) => u.id !== me.id)
          .map((u) => (
            <option key={u.id} value={u.id}>
              {u.email}
            </option>
          ))}
      </select>
    </div>
  );
}

function TokenForm({ owner }: { owner?: string }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [days, setDays] = useState(90);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [shown, setShown] = useState<CreatedToken | null>(null);
  // A token is lasting access: the server asks for your password again, and your code when two-factor authentication is on.
  const totpOn = useTotpStatus().data?.enabled === true;
  const create = useTokenMutation((t: NewApiToken) => tokensApi.create(t, owner));
  const fields = create.error instanceof ApiError ? create.error.fields : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const expires = new Date(Date.now() + days * 86_400_000).toISOString();
    create.mutate(
      { name, scope, expires_at: expires, password, ...(totpOn ? { code } : {}) },
      {
        onSuccess: (t) => {
          setShown(t);
          setName('');
        },
        onSettled: () => {
          setPassword('');
          setCode('');
        },
      },
    );
  };
  return (
    <div className="space-y-3">
      <form onSubmit={submit} noValidate className="grid max-w-3xl gap-3 sm:grid-cols-3">
        <Field id="token-name" label="Name" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} error={fields.name} />
        <div>
          <label htmlFor="token-scope" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Scope
          </label>
          <select id="token-scope" className={inputClass} value={scope} onChange={(e) => setScope(e.target.value as TokenScope)}>
            <option value="read">read</option>
            <option value="paper">paper</option>
            <option value="trade">trade</option>
          </select>
          {fields.scope && <p className="mt-1 text-xs text-red-600">{fields.scope}</p>}
        </div>
        <div>
          <label htmlFor="token-expiry" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Expires in
          </label>
          <select id="token-expiry" className={inputClass} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {lifetimes.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </select>
          {fields.expires_at && <p className="mt-1 text-xs text-red-600">{fields.expires_at}</p>}
        </div>
        <Field
          id="token-password"
          label="Your password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fields.password}
        />
        {totpOn && <Field id="token-code" label="Two-factor code" autoComplete="one-time-code" inputMode="numeric" value={code} onChange={(e) => setCode(e.target.value)} error={fields.code} />}
        <p className="text-xs text-slate-500 sm:col-span-3">{scopeHelp[scope]}. No token can manage tokens, users, settings, passwords or sessions.</p>
        <p className="text-xs text-slate-500 sm:col-span-3" data-testid="token-end-note">
          Tokens end when their owner changes the password or signs out everywhere, and when an operator resets that password or disables the account. The owner is notified of every new token.
        </p>
        <div className="sm:col-span-3 space-y-2">
          {create.error && Object.keys(fields).length === 0 && <ErrorBox message={errorMessage(create.error, 'Failed to create the token')} />}
          <button type="submit" className={btn.primary} disabled={create.isPending}>
            Create token
          </button>
        </div>
      </form>
      {shown && <NewSecret token={shown} onDone={() => setShown(null)} />}
    </div>
  );
}

/** The secret of a token just made: shown this once, with a copy button. */
function NewSecret({ token, onDone }: { token: CreatedToken; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(token.token).then(
      () => setCopied('Copied.'),
      () => setCopied('Copy failed: select the token and copy it by hand.'),
    );
  return (
    <div role="region" aria-label="New token" className="max-w-3xl space-y-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
      <p className="font-medium">
        Token “{token.name}” ({token.scope}), expires {formatDateTime(token.expires_at)}. Copy it now: it will not be shown again.
      </p>
      <code className="block break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-slate-900" data-testid="token-secret">
        {token.token}
      </code>
      <div className="flex items-center gap-2">
        <button type="button" className={btn.secondary} onClick={copy}>
          Copy
        </button>
        <button type="button" className={btn.secondary} onClick={onDone}>
          Done
        </button>
        {copied && <span role="status">{copied}</span>}
      </div>
    </div>
  );
}

function TokenList({ owner }: { owner?: string }) {
  const tokens = useApiTokens(owner);
  if (tokens.isLoading) return <p className="text-sm text-slate-500">Loading tokens…</p>;
  if (tokens.error) return <ErrorBox message={errorMessage(tokens.error, 'Failed to load the API tokens')} />;
  const list = tokens.data ?? [];
  if (list.length === 0) return <p className="text-sm text-slate-500">No API tokens.</p>;
  return (
    <div className="space-y-1">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-slate-500">
            <tr>
              <th className="py-1 pr-3 font-medium">Name</th>
              <th className="py-1 pr-3 font-medium">Scope</th>
              <th className="py-1 pr-3 font-medium">Created</th>
              <th className="py-1 pr-3 font-medium">Expires</th>
              <th className="py-1 pr-3 font-medium">Last used</th>
              <th className="py-1 font-medium" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {list.map((t) => (
              <TokenRow key={t.id} token={t} />
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-500">Last use is recorded to the minute.</p>
    </div>
  );
}

function TokenRow({ token }: { token: ApiToken }) {
  const revoke = useTokenMutation((id: string) => tokensApi.revoke(id));
  const expired = new Date(token.expires_at).getTime() <= Date.now();
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800">
      <td className="py-2 pr-3">{token.name}</td>
      <td className="py-2 pr-3">{token.scope}</td>
      <td className="py-2 pr-3">{formatDateTime(token.created_at)}</td>
      <td className="py-2 pr-3">
        {formatDateTime(token.expires_at)}
        {expired && <span className="ml-2 text-xs text-red-600">expired</span>}
      </td>
      <td className="py-2 pr-3">{token.last_used_at ? formatDateTime(token.last_used_at) : 'Never'}</td>
      <td className="py-2">
        <button type="button" className={btn.small} aria-label={`Revoke ${token.name}`} disabled={revoke.isPending} onClick={() => revoke.mutate(token.id)}>
          Revoke
        </button>
        {revoke.error && <span className="ml-2 text-xs text-red-600">{errorMessage(revoke.error, 'Failed')}</span>}
      </td>
    </tr>
  );
}
