import { useState, type FormEvent } from 'react';
import { ErrorBox, Field } from '@/components/Field';
import { btn } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { RecoveryCodes, TotpKey } from '@/components/RecoveryCodes';
import { useTotpConfirm, useTotpDisable, useTotpSetup, useTotpStatus } from '../totpApi';

/** The Account page's two-factor authentication: set up, confirm, turn off. */
export function TotpSection() {
  const status = useTotpStatus();
  const setup = useTotpSetup();
  const confirm = useTotpConfirm();
  const [codes, setCodes] = useState<string[] | null>(null);
  if (status.isPending) return <p className="text-sm text-slate-500">Loading...</p>;
  if (status.isError) return <ErrorBox message={errorMessage(status.error, 'Cannot load two-factor authentication')} />;
  const st = status.data;
  if (codes) {
    return (
      <div className="max-w-md space-y-3">
        <p className="text-sm">Two-factor authentication is on.</p>
        <RecoveryCodes codes={codes} />
        <button type="button" className={btn.secondary} onClick={() => setCodes(null)}>
          I have saved them
        </button>
      </div>
    );
  }
  if (st.enabled) return <DisableForm left={st.recovery_codes_left} required={st.required} />;
  return (
    <div className="max-w-md space-y-3">
      <p className="text-sm">
        Two-factor authentication is off.{st.required && ' Operators must use it: you will be asked to set it up at your next sign-in.'} Sign-in will ask for a
        code from an authenticator app as well as your password.
      </p>
      {!setup.data ? (
        <>
          <ErrorBox message={setup.isError ? errorMessage(setup.error, 'Cannot start the set-up') : null} />
          <button type="button" className={btn.primary} disabled={setup.isPending} onClick={() => setup.mutate()}>
            Set up two-factor authentication
          </button>
        </>
      ) : (
        <>
          <TotpKey secret={setup.data.secret} uri={setup.data.otpauth_uri} />
          <CodeForm label="Turn on" pending={confirm.isPending} error={confirm.error} onCode={(code) => confirm.mutate(code, { onSuccess: (r) => setCodes(r.recovery_codes) })} />
        </>
      )}
    </div>
  );
}

function CodeForm({ label, pending, error, onCode }: { label: string; pending: boolean; error: Error | null; onCode: (code: string) => void }) {
  const [code, setCode] = useState('');
  const fields = error instanceof ApiError ? error.fields : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onCode(code);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <Field id="totp-confirm-code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} error={fields.code} />
      {error && !fields.code && <ErrorBox message={errorMessage(error, 'Failed')} />}
      <button type="submit" className={btn.primary} disabled={pending}>
        {label}
      </button>
    </form>
  );
}

function DisableForm({ left, required }: { left: number; required: boolean }) {
  const disable = useTotpDisable();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const fields = disable.error instanceof ApiError ? disable.error.fields : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate({ password, code });
  };
  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-3">
      <p className="text-sm">
        Two-factor authentication is on; {left} unused recovery code{left === 1 ? '' : 's'} left.
        {required && ' Operators must use it: after turning it off you set it up again at your next sign-in.'}
      </p>
      <Field id="totp-disable-password" label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={fields.password} />
      <Field id="totp-disable-code" label="Code or recovery code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} error={fields.code} />
      {disable.error && Object.keys(fields).length === 0 && <ErrorBox message={errorMessage(disable.error, 'Failed to turn off')} />}
      <button type="submit" className={btn.danger} disabled={disable.isPending}>
        Turn off two-factor authentication
      </button>
    </form>
  );
}
