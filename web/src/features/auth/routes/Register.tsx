import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ErrorBox, Field } from '@/components/Field';
import { ApiError, errorMessage } from '@/lib/api';
import { AuthCard } from '../AuthCard';
import { FirstOperatorNotice } from '../FirstOperatorNotice';
import { useSignIn } from '../useSignIn';
import { validateCredentials, type Errors } from '../validate';

export default function Register() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const signUp = useSignIn('/auth/register');
  const serverFields = signUp.error instanceof ApiError ? signUp.error.fields : {};
  const shown = { ...serverFields, ...errors };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateCredentials({ name, email, password }, true);
    setErrors(v);
    if (Object.keys(v).length === 0) signUp.mutate({ name, email, password });
  };

  return (
    <AuthCard
      title="Create account"
      onSubmit={submit}
      footer={
        <>
          Already registered? <Link to="/login" className="text-blue-600 hover:underline dark:text-blue-400">Sign in</Link>
        </>
      }
    >
      <FirstOperatorNotice />
      <ErrorBox message={signUp.isError ? errorMessage(signUp.error, 'Registration failed') : null} />
      <Field id="name" label="Name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={shown.name} />
      <Field id="email" label="Email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} error={shown.email} />
      <Field id="password" label="Password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={shown.password} />
      <button type="submit" disabled={signUp.isPending} className="w-full rounded bg-blue-600 py-2 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {signUp.isPending ? 'Creating account...' : 'Create account'}
      </button>
    </AuthCard>
  );
}
