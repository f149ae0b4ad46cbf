import { useState, type FormEvent } from 'react';
import { ErrorBox, Field } from '@/components/Field';
import { btn, inputClass } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import type { Role } from '@/lib/types';
import { usersApi, useUserMutation, type NewUser } from '../api';

const empty: NewUser = { email: '', name: '', password: '', role: 'trader' };

/** Creates an account; the server validates and its messages show under the fields. */
export function CreateUserForm({ onDone }: { onDone: (msg: string) => void }) {
  const [form, setForm] = useState<NewUser>(empty);
  const create = useUserMutation(usersApi.create);
  const fields = create.error instanceof ApiError ? create.error.fields : {};
  const set = (k: keyof NewUser) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(form, {
      onSuccess: () => {
        onDone(`Created ${form.email}`);
        setForm(empty);
      },
    });
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2">
      <Field id="new-email" label="Email" type="email" value={form.email} onChange={set('email')} error={fields.email} />
      <Field id="new-name" label="Name" value={form.name} onChange={set('name')} error={fields.name} />
      <Field id="new-password" label="Password" type="password" autoComplete="new-password" value={form.password} onChange={set('password')} error={fields.password} />
      <div>
        <label htmlFor="new-role" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Role
        </label>
        <select id="new-role" className={inputClass} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
          <option value="trader">trader</option>
          <option value="operator">operator</option>
        </select>
      </div>
      <div className="sm:col-span-2 space-y-2">
        {create.error && Object.keys(fields).length === 0 && <ErrorBox message={errorMessage(create.error, 'Failed to create user')} />}
        <button type="submit" className={btn.primary} disabled={create.isPending}>
          Create user
        </button>
      </div>
    </form>
  );
}
