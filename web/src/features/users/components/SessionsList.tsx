import { useState } from 'react';
import { ErrorBox } from '@/components/Field';
import { btn } from '@/components/Modal';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { usersApi, useSessionMutation, useSessions, type Session } from '../api';

/** Where the signed-in user is signed in, with a way to end any other session or all of them. */
export function SessionsList() {
  const sessions = useSessions();
  const [result, setResult] = useState<string | null>(null);
  const endOthers = useSessionMutation(() => usersApi.endOtherSessions());
  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  if (sessions.isLoading) return <p className="text-sm text-slate-500">Loading sessions…</p>;
  if (sessions.error) return <ErrorBox message={errorMessage(sessions.error, 'Failed to load your sessions')} />;
  return (
    <div className="space-y-3">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-slate-500">
            <tr>
              <th className="py-1 pr-3 font-medium">Client</th>
              <th className="py-1 pr-3 font-medium">Address</th>
              <th className="py-1 pr-3 font-medium">Signed in</th>
              <th className="py-1 pr-3 font-medium">Last used</th>
              <th className="py-1 font-medium" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {(sessions.data ?? []).map((s) => (
              <SessionRow key={s.id} session={s} onEnded={() => setResult('Session signed out.')} />
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-500">Last use is recorded to the minute.</p>
      {endOthers.error && <ErrorBox message={errorMessage(endOthers.error, 'Failed to sign out your other sessions')} />}
      {result && (
        <p role="status" className="text-sm text-green-700 dark:text-green-400">
          {result}
        </p>
      )}
      <button
        type="button"
        className={btn.primary}
        disabled={endOthers.isPending || others === 0}
        onClick={() => endOthers.mutate(undefined, { onSuccess: (r) => setResult(`Signed out of ${r.ended} other session${r.ended === 1 ? '' : 's'}. This one stays signed in.`) })}
      >
        Sign out everywhere else
      </button>
    </div>
  );
}

function SessionRow({ session, onEnded }: { session: Session; onEnded: () => void }) {
  const end = useSessionMutation((id: string) => usersApi.endSession(id));
  return (
    <tr className="border-t border-slate-200 dark:border-slate-800">
      <td className="max-w-xs truncate py-2 pr-3" title={session.user_agent}>
        {session.user_agent || 'Unknown client'}
        {session.current && <span className="ml-2 rounded bg-blue-100 px-1.5 py-0.5 text-xs text-blue-800 dark:bg-blue-900 dark:text-blue-200">This session</span>}
      </td>
      <td className="py-2 pr-3">{session.remote || '—'}</td>
      <td className="py-2 pr-3">{formatDateTime(session.created_at)}</td>
      <td className="py-2 pr-3">{formatDateTime(session.last_used_at)}</td>
      <td className="py-2">
        {!session.current && (
          <button type="button" className={btn.small} disabled={end.isPending} onClick={() => end.mutate(session.id, { onSuccess: onEnded })}>
            Sign out
          </button>
        )}
        {end.error && <span className="ml-2 text-xs text-red-600">{errorMessage(end.error, 'Failed')}</span>}
      </td>
    </tr>
  );
}
