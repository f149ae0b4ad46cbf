import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ErrorBox, Field } from '@/components/Field';
import { ApiError, errorMessage } from '@/lib/api';
import { AuthCard } from '../AuthCard';
import { FirstOperatorNotice } from '../FirstOperatorNotice';
import { useSignIn } from '../useSignIn';
import { validateCredentials, type Errors } from '../validate';

export default function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const signIn = useSignIn('/auth/login');
  const serverFields = signIn.error instanceof ApiError ? signIn.error.fields : {};
  const shown = { ...serverFields, ...errors };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateCredentials({ email, password }, false);
    setErrors(v);
    if (Object.keys(v).length === 0) signIn.mutate({ email, password });
  };

  return (
    <AuthCard
      title="Sign in"
      onSubmit={submit}
      footer={
        <>
          No account yet? <Link to="/register" className="text-blue-600 hover:underline dark:text-blue-400">Create one</Link>
        </>
      }
    >
      <FirstOperatorNotice />
      <ErrorBox message={signIn.isError ? errorMessage(signIn.error, 'Login failed') : null} />
      <Field id="email" label="Email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} error={shown.email} />
      <Field id="password" label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={shown.password} />
      <button type="submit" disabled={signIn.isPending} className="w-full rounded bg-blue-600 py-2 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {signIn.isPending ? 'Signing in...' : 'Sign in'}
      </button>
    </AuthCard>
  );
}
