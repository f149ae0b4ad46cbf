import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ErrorBox, Field } from '@/components/Field';
import { ApiError, errorMessage } from '@/lib/api';
import { AuthCard } from '../AuthCard';
import { FirstOperatorNotice } from '../FirstOperatorNotice';
import { mergeAsk, RecoveryCodesStep, TotpCodeField, totpAskFrom, type TotpAsk } from '../TotpLoginStep';
import { useSetup } from '../useSetup';
import { useSignIn } from '../useSignIn';
import { validateCredentials, type Errors } from '../validate';

export default function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [code, setCode] = useState('');
  const [ask, setAsk] = useState<TotpAsk | null>(null); // once asked for a code, the field stays
  const signIn = useSignIn('/auth/login');
  // Offered only when the server would accept a registration (closed by default).
  const registrationOpen = useSetup().data?.registration_open === true;
  const serverFields = signIn.error instanceof ApiError ? signIn.error.fields : {};
  const shown = { ...serverFields, ...errors };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateCredentials({ email, password }, false);
    setErrors(v);
    if (Object.keys(v).length !== 0) return;
    signIn.mutate(ask ? { email, password, code } : { email, password }, { onError: (err) => setAsk((a) => mergeAsk(a, totpAskFrom(err))) });
  };

  const recovery = signIn.data?.recovery_codes;
  if (recovery?.length) {
    return (
      <AuthCard title="Save your recovery codes" onSubmit={(e) => e.preventDefault()} footer={null}>
        <RecoveryCodesStep codes={recovery} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Sign in"
      onSubmit={submit}
      footer={
        registrationOpen ? (
          <>
            No account yet? <Link to="/register" className="text-blue-600 hover:underline dark:text-blue-400">Create one</Link>
          </>
        ) : null
      }
    >
      <FirstOperatorNotice />
      <ErrorBox message={signIn.isError ? errorMessage(signIn.error, 'Login failed') : null} />
      <Field id="email" label="Email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} error={shown.email} />
      <Field id="password" label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={shown.password} />
      {ask && <TotpCodeField ask={ask} code={code} onCode={setCode} error={code ? shown.code : undefined} />}
      <button type="submit" disabled={signIn.isPending} className="w-full rounded bg-blue-600 py-2 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {signIn.isPending ? 'Signing in...' : 'Sign in'}
      </button>
    </AuthCard>
  );
}
