import { Card, ScreenHeader } from '@/components/Screen';
import { formatDateTime } from '@/lib/format';
import { useMe } from '@/lib/auth';
import { ChangePasswordForm } from '../components/ChangePasswordForm';
import { SessionsList } from '../components/SessionsList';
import { Notifications } from '../components/Notifications';

/** The signed-in user's own account: who they are, a change-password form and their sessions. */
export default function Account() {
  const { data: me } = useMe();
  return (
    <div>
      <ScreenHeader title="Account" subtitle={me ? `${me.name} · ${me.email} · ${me.role}` : undefined} />
      {me?.last_login && <p className="mb-4 text-sm text-slate-500">Last sign-in {formatDateTime(me.last_login)}</p>}
      <Card title="Change password">
        <ChangePasswordForm />
      </Card>
      <Card title="Sessions" className="mt-4">
        <SessionsList />
      </Card>
      <Card title="Notifications" className="mt-4">
        <Notifications />
      </Card>
    </div>
  );
}
