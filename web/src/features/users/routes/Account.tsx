import { Card, ScreenHeader } from '@/components/Screen';
import { formatDateTime } from '@/lib/format';
import { useMe } from '@/lib/auth';
import { ApiTokens } from '../components/ApiTokens';
import { ChangePasswordForm } from '../components/ChangePasswordForm';
import { SessionsList } from '../components/SessionsList';
import { TotpSection } from '../components/TotpSection';
import { Notifications } from '../components/Notifications';

/** The signed-in user's own account: who they are, a change-password form, their sessions and API tokens. */
export default function Account() {
  const { data: me } = useMe();
  return (
    <div>
      <ScreenHeader title="Account" subtitle={me ? `${me.name} · ${me.email} · ${me.role}` : undefined} />
      {me?.last_login && <p className="mb-4 text-sm text-slate-500">Last sign-in {formatDateTime(me.last_login)}</p>}
      <Card title="Change password">
        <ChangePasswordForm />
      </Card>
      <Card title="Two-factor authentication" className="mt-4">
        <TotpSection />
      </Card>
      <Card title="Sessions" className="mt-4">
        <SessionsList />
      </Card>
      {me && (
        <Card title="API tokens" className="mt-4">
          <ApiTokens me={me} />
        </Card>
      )}
      <Card title="Notifications" className="mt-4">
        <Notifications />
      </Card>
    </div>
  );
}
