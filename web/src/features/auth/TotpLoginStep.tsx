import { useNavigate } from 'react-router-dom';
import { Field } from '@/components/Field';
import { ApiError } from '@/lib/api';
import { RecoveryCodes, TotpKey } from '@/components/RecoveryCodes';

/** What the server's answer to a sign-in asks of the second factor. */
export interface TotpAsk {
  /** Set when an operator must enrol: the key to add to the app. */
  enrol?: { secret: string; uri: string };
}

/** Reads a sign-in failure: the server asks for a code by naming the field "code". */
export function totpAskFrom(err: unknown): TotpAsk | null {
  if (!(err instanceof ApiError) || !('code' in err.fields)) return null;
  const { totp_secret: secret, totp_uri: uri } = err.fields;
  return secret && uri ? { enrol: { secret, uri } } : {};
}

/** The ask after another answer: a wrong enrolment code keeps the key on screen. */
export function mergeAsk(prev: TotpAsk | null, next: TotpAsk | null): TotpAsk | null {
  if (!next) return prev;
  return next.enrol || !prev?.enrol ? next : { enrol: prev.enrol };
}

/** The code field of a sign-in, with the key to add when enrolling. */
export function TotpCodeField({ ask, code, onCode, error }: { ask: TotpAsk; code: string; onCode: (c: string) => void; error?: string }) {
  return (
    <>
      {ask.enrol && <TotpKey secret={ask.enrol.secret} uri={ask.enrol.uri} />}
      <Field
        id="code"
        label={ask.enrol ? 'Code from the app' : 'Authentication code'}
        inputMode={ask.enrol ? 'numeric' : undefined}
        autoComplete="one-time-code"
        autoFocus
        value={code}
        onChange={(e) => onCode(e.target.value)}
        error={error}
      />
      {!ask.enrol && <p className="text-xs text-slate-500">The 6-digit code from your authenticator app, or one of your recovery codes.</p>}
    </>
  );
}

/** After a sign-in that turned two-factor on: the recovery codes, then on. */
export function RecoveryCodesStep({ codes }: { codes: string[] }) {
  const navigate = useNavigate();
  return (
    <div className="space-y-3">
      <p className="text-sm">Two-factor authentication is on for your account.</p>
      <RecoveryCodes codes={codes} />
      <button type="button" onClick={() => navigate('/dashboard', { replace: true })} className="w-full rounded bg-blue-600 py-2 font-medium text-white hover:bg-blue-700">
        I have saved them — continue
      </button>
    </div>
  );
}
