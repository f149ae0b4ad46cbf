import { useState } from 'react';
import { DataTable, type Column } from '@/components/DataTable';
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
      <DataTable
        label="Sessions"
        rows={sessions.data ?? []}
        columns={COLUMNS}
        rowKey={(s) => s.id}
        rowTestId="session-row"
        actions={(s) => (s.current ? null : <EndSession session={s} onEnded={() => setResult('Session signed out.')} />)}
      />
      <p className="text-xs text-slate-500">Last use is recorded to the minute.</p>
      {endOthers.error && <ErrorBox message={errorMessage(endOthers.error, 'Failed to sign out your other sessions')} />}
      {result && (
        <p role="status" className="text-sm text-green-700 dark:text-green-400">
          {result}
        </p>
      )}
      <p className="text-xs text-slate-500" id="end-others-note">
        Signing out everywhere else also revokes your API tokens: scripts and agents using them stop until you make new ones.
      </p>
      <button
        type="button"
        className={btn.primary}
        aria-describedby="end-others-note"
        disabled={endOthers.isPending || others === 0}
        onClick={() => endOthers.mutate(undefined, { onSuccess: (r) => setResult(`Signed out of ${r.ended} other session${r.ended === 1 ? '' : 's'} and revoked your API tokens. This one stays signed in.`) })}
      >
        Sign out everywhere else
      </button>
    </div>
  );
}

const COLUMNS: Column<Session>[] = [
  {
    header: 'Client',
    full: true,
    cell: (s) => (
      <span className="block max-w-xs truncate" title={s.user_agent}>
        {s.user_agent || 'Unknown client'}
        {s.current && <span className="ml-2 rounded bg-blue-100 px-1.5 py-0.5 text-xs text-blue-800 dark:bg-blue-900 dark:text-blue-200">This session</span>}
      </span>
    ),
  },
  { header: 'Address', cell: (s) => s.remote || '—' },
  { header: 'Signed in', cell: (s) => formatDateTime(s.created_at) },
  { header: 'Last used', cell: (s) => formatDateTime(s.last_used_at) },
];

/** Signs one other session out (each with its own pending state and error). */
function EndSession({ session, onEnded }: { session: Session; onEnded: () => void }) {
  const end = useSessionMutation((id: string) => usersApi.endSession(id));
  return (
    <>
      <button type="button" className={btn.small} disabled={end.isPending} onClick={() => end.mutate(session.id, { onSuccess: onEnded })}>
        Sign out
      </button>
      {end.error && <span className="ml-2 text-xs text-red-600">{errorMessage(end.error, 'Failed')}</span>}
    </>
  );
}
