import { useState } from 'react';
import { useWide } from '@/components/DataTable';
import { ErrorBox } from '@/components/Field';
import { Card, ScreenHeader } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { errorMessage } from '@/lib/api';
import { useMe } from '@/lib/auth';
import { useUsers } from '../api';
import { CreateUserForm } from '../components/CreateUserForm';
import { UserRow } from '../components/UserRow';

/** Operators' account management: list, create, change role, disable or enable, reset password. */
export default function Users() {
  const { data: me } = useMe();
  const users = useUsers();
  const wide = useWide();
  const [result, setResult] = useState<{ ok: boolean; msg: string } | null>(null);
  const report = (ok: boolean, msg: string) => setResult({ ok, msg });
  if (me && me.role !== 'operator') {
    return <ErrorBox message="This screen is for operators." />;
  }
  return (
    <div>
      <ScreenHeader title="Users" subtitle="Accounts, roles and access" />
      {result &&
        (result.ok ? (
          <p role="status" className="mb-4 rounded border border-green-300 bg-green-50 p-3 text-sm text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-300">
            {result.msg}
          </p>
        ) : (
          <div className="mb-4">
            <ErrorBox message={result.msg} />
          </div>
        ))}
      <Card title="Accounts" className="mb-6 overflow-x-auto">
        {users.isPending && <Spinner />}
        {users.error && <ErrorBox message={errorMessage(users.error, 'Failed to load users')} />}
        {users.data && !wide && (
          <ul aria-label="Accounts">
            {users.data.map((u) => (
              <UserRow key={u.id} user={u} isMe={u.id === me?.id} onResult={report} card />
            ))}
          </ul>
        )}
        {users.data && wide && (
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className="py-2 pr-3">Email</th>
                <th className="py-2 pr-3">Name</th>
                <th className="py-2 pr-3">Role</th>
                <th className="py-2 pr-3">Status</th>
                <th className="py-2 pr-3">Created</th>
                <th className="py-2">Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((u) => (
                <UserRow key={u.id} user={u} isMe={u.id === me?.id} onResult={report} />
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title="Create user">
        <CreateUserForm onDone={(msg) => report(true, msg)} />
      </Card>
    </div>
  );
}
